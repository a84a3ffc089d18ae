// A chat completion as the Responses object a native provider would have answered: reasoning
// first, then the message, then the function calls, in the order a model produces them.
import type { ChatCompletion, ChatMessage } from '../../core/types/chat.js';
import type { ResponseObject, ResponsesContentPart, ResponsesOutputItem, ResponsesRequest } from '../../core/types/responses.js';
import type { Usage } from '../../core/types/usage.js';
import { itemId, responseId } from './ids.js';
import { functionCallItem, messageItem, reasoningItem, textPart } from './output-items.js';
import type { ItemStatus } from './output-items.js';
import { reasoningText } from './reasoning-text.js';
import { outcomeOf, responseObject } from './response-envelope.js';
import { toResponsesUsage } from './responses-usage.js';

export interface Stamp {
  /** The response's id token (ids.ts). */
  token: string;
  completedAt: number;
}

export function fromChatCompletion(completion: ChatCompletion, req: ResponsesRequest, usage: Usage | null, stamp: Stamp): ResponseObject {
  const choice = completion.choices[0];
  const outcome = outcomeOf(choice?.finish_reason ?? null);
  // The item being written when the output stopped is the one left unfinished.
  const lastStatus: ItemStatus = outcome.status === 'completed' ? 'completed' : 'incomplete';
  const output = choice === undefined ? [] : outputItems(choice.message, stamp.token, lastStatus);
  return responseObject(
    req,
    { id: responseId(stamp.token), created_at: completion.created, model: completion.model },
    { status: outcome.status, incomplete_details: outcome.incomplete_details, completed_at: stamp.completedAt, output, usage: usage === null ? null : toResponsesUsage(usage) },
  );
}

function outputItems(message: ChatMessage, token: string, lastStatus: ItemStatus): ResponsesOutputItem[] {
  const items: ResponsesOutputItem[] = [];
  const reasoning = reasoningText(message);
  if (reasoning !== '') items.push(reasoningItem(itemId('rs', token, items.length), reasoning));
  const calls = message.tool_calls ?? [];
  const parts = contentParts(message);
  // An answer with neither text nor calls still gets its (empty) message, as OpenAI's does.
  if (parts.length > 0 || calls.length === 0) {
    items.push(messageItem(itemId('msg', token, items.length), parts.length > 0 ? parts : [textPart('output_text', '')], 'completed'));
  }
  for (const call of calls) items.push(functionCallItem(itemId('fc', token, items.length), call.id, call.function.name, call.function.arguments, 'completed'));
  const last = items[items.length - 1];
  if (last?.status !== undefined) last.status = lastStatus;
  return items;
}

function contentParts(message: ChatMessage): ResponsesContentPart[] {
  const parts: ResponsesContentPart[] = [];
  const text = contentText(message.content);
  if (text !== '') parts.push(textPart('output_text', text));
  if (typeof message.refusal === 'string' && message.refusal !== '') parts.push(textPart('refusal', message.refusal));
  return parts;
}

/** Assistant content is a string, but some servers answer with text parts. */
function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}
