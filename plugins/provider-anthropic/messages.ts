// OpenAI's flat message list -> Anthropic's top-level `system` plus strictly alternating
// user/assistant turns. Anthropic has no system, developer or tool roles: instructions move
// to `system` and tool outputs become tool_result blocks inside a user turn.
import { badRequest } from '../../core/errors.js';
import type { ChatMessage, ToolCall } from '../../core/types/chat.js';
import { textOnlyBlocks, toolResultBlocks, userBlocks } from './content.js';
import type { AnthropicMessageParam, AnthropicRequestBlock, AnthropicTextBlock, AnthropicToolResultBlock, AnthropicToolUseBlock } from './types.js';

export interface AnthropicConversation {
  system: AnthropicTextBlock[];
  messages: AnthropicMessageParam[];
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Anthropic wants tool input as an object; clients send a JSON string ('' for no arguments). */
export function parseToolArguments(args: string, param: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    throw badRequest('tool call arguments are not valid JSON', param, 'invalid_tool_arguments');
  }
  if (!isJsonObject(value)) throw badRequest('tool call arguments must be a JSON object', param, 'invalid_tool_arguments');
  return value;
}

function toolUseBlock(call: ToolCall, param: string): AnthropicToolUseBlock {
  return {
    type: 'tool_use',
    id: call.id,
    name: call.function.name,
    input: parseToolArguments(call.function.arguments, `${param}.function.arguments`),
  };
}

/**
 * `reasoning_content` of earlier assistant turns is dropped: Anthropic accepts thinking
 * blocks back only with the signature it issued, which OpenAI-shaped history cannot carry.
 */
function assistantBlocks(message: ChatMessage, param: string): AnthropicRequestBlock[] {
  const text = textOnlyBlocks(message.content, `${param}.content`);
  const calls = (message.tool_calls ?? []).map((call, j) => toolUseBlock(call, `${param}.tool_calls[${j}]`));
  return [...text, ...calls];
}

function toolResultBlock(message: ChatMessage, param: string): AnthropicToolResultBlock {
  const id = message.tool_call_id;
  if (typeof id !== 'string' || id === '') throw badRequest('tool messages need a tool_call_id', `${param}.tool_call_id`);
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: id };
  if (typeof message.content === 'string') {
    if (message.content !== '') block.content = message.content;
    return block;
  }
  const blocks = toolResultBlocks(message.content, `${param}.content`);
  if (blocks.length > 0) block.content = blocks;
  return block;
}

/**
 * Anthropic requires alternating roles, so a turn with the same role as the previous one is
 * merged into it (this is also what puts parallel tool results into ONE user turn). A turn
 * with no blocks is dropped: Anthropic rejects empty content.
 */
function appendTurn(turns: AnthropicMessageParam[], role: AnthropicMessageParam['role'], blocks: AnthropicRequestBlock[]): void {
  if (blocks.length === 0) return;
  const last = turns[turns.length - 1];
  if (last !== undefined && last.role === role) last.content.push(...blocks);
  else turns.push({ role, content: [...blocks] });
}

export function toAnthropicConversation(messages: readonly ChatMessage[]): AnthropicConversation {
  const system: AnthropicTextBlock[] = [];
  const turns: AnthropicMessageParam[] = [];
  messages.forEach((message, i) => {
    const param = `messages[${i}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...textOnlyBlocks(message.content, `${param}.content`));
        return;
      case 'user':
        appendTurn(turns, 'user', userBlocks(message.content, `${param}.content`));
        return;
      case 'assistant':
        appendTurn(turns, 'assistant', assistantBlocks(message, param));
        return;
      case 'tool':
        appendTurn(turns, 'user', [toolResultBlock(message, param)]);
        return;
      default:
        // The legacy `function` role carries no call id to pair with a tool_use block.
        throw badRequest(`role '${String(message.role)}' is not supported by this provider`, `${param}.role`);
    }
  });
  return { system, messages: turns };
}
