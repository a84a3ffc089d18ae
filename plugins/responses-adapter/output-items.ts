// Responses output items and content parts, shaped (and keyed in the order) OpenAI sends
// them. Shared by the JSON translation and the stream, so both give identical items.
import type { ResponsesContentPart, ResponsesOutputItem } from '../../core/types/responses.js';

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** The two kinds of text a message item holds. */
export type TextKind = 'output_text' | 'refusal';

export function textPart(kind: TextKind, text: string): ResponsesContentPart {
  return kind === 'output_text' ? { type: 'output_text', annotations: [], logprobs: [], text } : { type: 'refusal', refusal: text };
}

export function messageItem(id: string, content: ResponsesContentPart[], status: ItemStatus): ResponsesOutputItem {
  return { id, type: 'message', status, content, role: 'assistant' };
}

export function functionCallItem(id: string, callId: string, name: string, args: string, status: ItemStatus): ResponsesOutputItem {
  return { id, type: 'function_call', status, arguments: args, call_id: callId, name };
}

/** Chat reasoning text is the nearest thing to OpenAI's reasoning summary; it has no status. */
export function reasoningItem(id: string, text: string): ResponsesOutputItem {
  return { id, type: 'reasoning', summary: text === '' ? [] : [summaryPart(text)] };
}

export function summaryPart(text: string): { type: 'summary_text'; text: string } {
  return { type: 'summary_text', text };
}
