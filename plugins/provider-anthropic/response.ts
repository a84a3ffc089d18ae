// Anthropic message -> OpenAI chat completion plus the neutral usage.
// Blocks of one kind are concatenated without a separator, exactly as the stream path
// concatenates their deltas, so a streamed and a whole answer reassemble to the same text.
import type { ChatCompletion, ChatMessage, ToolCall } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import { finishReasonFor } from './finish-reason.js';
import type { AnthropicMessage, AnthropicResponseBlock } from './types.js';
import { chatUsageFrom, usageFromAnthropic } from './usage.js';

export { usageFromAnthropic } from './usage.js';

function assistantMessage(blocks: readonly AnthropicResponseBlock[]): ChatMessage {
  const text: string[] = [];
  const thinking: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') text.push(block.text);
    else if (block.type === 'thinking') thinking.push(block.thinking);
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } });
    }
    // redacted_thinking is encrypted and server tool blocks have no OpenAI shape: skipped.
  }
  const message: ChatMessage = { role: 'assistant', content: text.length > 0 ? text.join('') : null };
  if (thinking.length > 0) message.reasoning_content = thinking.join('');
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}

/**
 * `modelId` is the id the client should see; `created` defaults to now because Anthropic
 * sends no timestamp.
 */
export function fromAnthropicMessage(
  msg: AnthropicMessage,
  modelId: string,
  created: number = Math.floor(Date.now() / 1000),
): { completion: ChatCompletion; usage: Usage } {
  const usage = usageFromAnthropic(msg.usage);
  const completion: ChatCompletion = {
    id: msg.id,
    object: 'chat.completion',
    created,
    model: modelId,
    choices: [{ index: 0, message: assistantMessage(msg.content ?? []), finish_reason: finishReasonFor(msg.stop_reason) ?? 'stop' }],
    usage: chatUsageFrom(usage),
  };
  return { completion, usage };
}
