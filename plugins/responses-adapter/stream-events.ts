// The Responses stream events, shaped (and keyed in the order) OpenAI sends them, without
// their sequence_number: the stream builder numbers them as it emits them.
import type { ResponseObject, ResponsesContentPart, ResponsesOutputItem, ResponsesStreamEvent } from '../../core/types/responses.js';
import { summaryPart, textPart } from './output-items.js';
import type { TextKind } from './output-items.js';

export type LifecycleType = 'response.created' | 'response.in_progress' | 'response.completed' | 'response.incomplete';

export function lifecycle(type: LifecycleType, response: ResponseObject): ResponsesStreamEvent {
  return { type, response };
}

export function itemAdded(item: ResponsesOutputItem, outputIndex: number): ResponsesStreamEvent {
  return { type: 'response.output_item.added', item, output_index: outputIndex };
}

export function itemDone(item: ResponsesOutputItem, outputIndex: number): ResponsesStreamEvent {
  return { type: 'response.output_item.done', item, output_index: outputIndex };
}

export function partAdded(itemId: string, outputIndex: number, contentIndex: number, kind: TextKind): ResponsesStreamEvent {
  return { type: 'response.content_part.added', content_index: contentIndex, item_id: itemId, output_index: outputIndex, part: textPart(kind, '') };
}

export function partDone(itemId: string, outputIndex: number, contentIndex: number, part: ResponsesContentPart): ResponsesStreamEvent {
  return { type: 'response.content_part.done', content_index: contentIndex, item_id: itemId, output_index: outputIndex, part };
}

export function textDelta(kind: TextKind, itemId: string, outputIndex: number, contentIndex: number, delta: string): ResponsesStreamEvent {
  if (kind === 'refusal') return { type: 'response.refusal.delta', content_index: contentIndex, delta, item_id: itemId, output_index: outputIndex };
  return { type: 'response.output_text.delta', content_index: contentIndex, delta, item_id: itemId, logprobs: [], output_index: outputIndex };
}

export function textDone(kind: TextKind, itemId: string, outputIndex: number, contentIndex: number, text: string): ResponsesStreamEvent {
  if (kind === 'refusal') return { type: 'response.refusal.done', content_index: contentIndex, item_id: itemId, output_index: outputIndex, refusal: text };
  return { type: 'response.output_text.done', content_index: contentIndex, item_id: itemId, logprobs: [], output_index: outputIndex, text };
}

export function argumentsDelta(itemId: string, outputIndex: number, delta: string): ResponsesStreamEvent {
  return { type: 'response.function_call_arguments.delta', delta, item_id: itemId, output_index: outputIndex };
}

export function argumentsDone(itemId: string, outputIndex: number, name: string, args: string): ResponsesStreamEvent {
  return { type: 'response.function_call_arguments.done', arguments: args, item_id: itemId, name, output_index: outputIndex };
}

export function summaryPartAdded(itemId: string, outputIndex: number): ResponsesStreamEvent {
  return { type: 'response.reasoning_summary_part.added', item_id: itemId, output_index: outputIndex, part: summaryPart(''), summary_index: 0 };
}

export function summaryPartDone(itemId: string, outputIndex: number, text: string): ResponsesStreamEvent {
  return { type: 'response.reasoning_summary_part.done', item_id: itemId, output_index: outputIndex, part: summaryPart(text), summary_index: 0 };
}

export function summaryTextDelta(itemId: string, outputIndex: number, delta: string): ResponsesStreamEvent {
  return { type: 'response.reasoning_summary_text.delta', delta, item_id: itemId, output_index: outputIndex, summary_index: 0 };
}

export function summaryTextDone(itemId: string, outputIndex: number, text: string): ResponsesStreamEvent {
  return { type: 'response.reasoning_summary_text.done', item_id: itemId, output_index: outputIndex, summary_index: 0, text };
}
