// `instructions` and `input` as chat messages. A model turn that called functions arrives as
// separate function_call items (after the turn's text, if any); chat holds one such turn as a
// single assistant message, so calls join the assistant message right before them.
import { badRequest } from '../../core/errors.js';
import type { ChatMessage, ToolCall } from '../../core/types/chat.js';
import type { ResponsesInputItem, ResponsesRequest } from '../../core/types/responses.js';
import { toChatContent } from './content-parts.js';
import { requiredString } from './required-string.js';

export function toChatMessages(input: ResponsesRequest['input'], instructions: ResponsesRequest['instructions']): ChatMessage[] {
  const messages: ChatMessage[] = [];
  // `system`, not `developer`: many chat servers know only the older role, and it means the same.
  if (typeof instructions === 'string' && instructions !== '') messages.push({ role: 'system', content: instructions });
  if (typeof input === 'string') messages.push({ role: 'user', content: input });
  else if (Array.isArray(input)) for (let i = 0; i < input.length; i++) addItem(messages, input[i], `input[${i}]`);
  else if (input !== undefined && input !== null) throw badRequest("'input' must be a string or an array of input items", 'input');
  if (messages.length === 0) throw badRequest("'input' is required: without a stored conversation there is nothing else to answer", 'input');
  return messages;
}

function addItem(messages: ChatMessage[], value: unknown, param: string): void {
  if (typeof value !== 'object' || value === null) throw badRequest(`'${param}' must be an input item object`, param);
  const item = value as ResponsesInputItem;
  const type = item.type === undefined || item.type === '' ? 'message' : item.type;
  switch (type) {
    case 'message':
      messages.push(fromMessage(item, param));
      return;
    case 'function_call':
      addToolCall(messages, toolCallOf(item, param));
      return;
    case 'function_call_output':
      messages.push(fromFunctionCallOutput(item, param));
      return;
    case 'reasoning':
      // Earlier reasoning (a summary, or OpenAI's encrypted content) has no place in a chat
      // request; chat providers do not take their own reasoning back either.
      return;
    case 'item_reference':
      throw badRequest('item references point at stored items; this model is served through Chat Completions, which stores nothing: send the item itself', `${param}.type`, 'unsupported_value');
    default:
      throw badRequest(`input items of type '${String(type)}' are not supported when the model is served through Chat Completions`, `${param}.type`, 'unsupported_value');
  }
}

function fromMessage(item: ResponsesInputItem, param: string): ChatMessage {
  const role = item.role;
  if (role === 'user') return { role, content: toChatContent(item.content, 'user', `${param}.content`) };
  if (role === 'assistant') return { role, content: toChatContent(item.content, 'assistant', `${param}.content`) };
  if (role === 'system' || role === 'developer') return { role: 'system', content: toChatContent(item.content, 'system', `${param}.content`) };
  throw badRequest(`'${param}.role' must be one of "user", "assistant", "system", "developer"`, `${param}.role`);
}

function toolCallOf(item: ResponsesInputItem, param: string): ToolCall {
  return {
    id: requiredString(item.call_id, `${param}.call_id`),
    type: 'function',
    function: { name: requiredString(item.name, `${param}.name`), arguments: requiredString(item.arguments, `${param}.arguments`) },
  };
}

function addToolCall(messages: ChatMessage[], call: ToolCall): void {
  const last = messages[messages.length - 1];
  if (last !== undefined && last.role === 'assistant') {
    if (last.tool_calls === undefined) last.tool_calls = [call];
    else last.tool_calls.push(call);
    return;
  }
  messages.push({ role: 'assistant', content: null, tool_calls: [call] });
}

function fromFunctionCallOutput(item: ResponsesInputItem, param: string): ChatMessage {
  const callId = requiredString(item.call_id, `${param}.call_id`);
  if (item.output === undefined || item.output === null) throw badRequest(`'${param}.output' is required`, `${param}.output`);
  return { role: 'tool', tool_call_id: callId, content: toChatContent(item.output, 'tool', `${param}.output`) };
}
