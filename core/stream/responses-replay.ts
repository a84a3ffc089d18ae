// A Responses object answered to a stream request (core/stream/json-answer.ts), as the events
// the Responses API streams for it: response.created and response.in_progress, then each output item
// opened, its content given whole as one delta, and closed, then response.completed (or
// .incomplete, .failed) with the object itself. Ids, texts and usage are the answer's own;
// the sequence numbers are counted here. Messages (text and refusal parts), function calls and
// reasoning summaries have such events; an answer holding anything else has no exact stream
// form and is refused (502 `stream_expected`).
import type { ResponseObject, ResponsesContentPart, ResponsesOutputItem } from '../types/responses.js';

type Event = Record<string, unknown> & { type: string };

const FINAL_EVENT: Readonly<Record<string, string>> = { completed: 'response.completed', incomplete: 'response.incomplete', failed: 'response.failed' };

/** The stream's events, or null when the answer has parts the stream cannot carry exactly. */
export function responseEvents(response: ResponseObject): Event[] | null {
  const final = FINAL_EVENT[response.status];
  if (final === undefined || !Array.isArray(response.output)) return null;
  const started = { ...response, status: 'in_progress', output: [], usage: null };
  const events: Event[] = [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
  ];
  for (const [index, item] of response.output.entries()) {
    const inner = itemEvents(item, index);
    if (inner === null) return null;
    events.push(...inner);
  }
  events.push({ type: final, response });
  return events.map((event, i) => ({ ...event, sequence_number: i }));
}

function itemEvents(item: ResponsesOutputItem, index: number): Event[] | null {
  const at = { item_id: item.id, output_index: index };
  let opened: ResponsesOutputItem;
  let inner: Event[] | null;
  if (item.type === 'message' && Array.isArray(item.content)) {
    opened = { ...item, status: 'in_progress', content: [] };
    inner = partsEvents(item.content, at);
  } else if (item.type === 'function_call' && typeof item.arguments === 'string') {
    opened = { ...item, status: 'in_progress', arguments: '' };
    inner = [
      { type: 'response.function_call_arguments.delta', ...at, delta: item.arguments },
      { type: 'response.function_call_arguments.done', ...at, arguments: item.arguments },
    ];
  } else if (item.type === 'reasoning' && (item.summary === undefined || Array.isArray(item.summary))) {
    opened = { ...item, summary: [] };
    inner = summaryEvents(item.summary ?? [], at);
  } else return null;
  if (inner === null) return null;
  return [{ type: 'response.output_item.added', output_index: index, item: opened }, ...inner, { type: 'response.output_item.done', output_index: index, item }];
}

function partsEvents(parts: ResponsesContentPart[], at: { item_id: string; output_index: number }): Event[] | null {
  const events: Event[] = [];
  for (const [content_index, part] of parts.entries()) {
    const where = { ...at, content_index };
    if (part.type === 'output_text' && typeof part.text === 'string') {
      const logprobs = part['logprobs'] ?? [];
      events.push(
        { type: 'response.content_part.added', ...where, part: { ...part, annotations: [], text: '' } },
        { type: 'response.output_text.delta', ...where, delta: part.text, logprobs },
        { type: 'response.output_text.done', ...where, text: part.text, logprobs },
      );
    } else if (part.type === 'refusal' && typeof part['refusal'] === 'string') {
      events.push(
        { type: 'response.content_part.added', ...where, part: { ...part, refusal: '' } },
        { type: 'response.refusal.delta', ...where, delta: part['refusal'] },
        { type: 'response.refusal.done', ...where, refusal: part['refusal'] },
      );
    } else return null;
    events.push({ type: 'response.content_part.done', ...where, part });
  }
  return events;
}

function summaryEvents(summary: Array<{ type: string; text: string }>, at: { item_id: string; output_index: number }): Event[] | null {
  const events: Event[] = [];
  for (const [summary_index, part] of summary.entries()) {
    if (part.type !== 'summary_text' || typeof part.text !== 'string') return null;
    const where = { ...at, summary_index };
    events.push(
      { type: 'response.reasoning_summary_part.added', ...where, part: { ...part, text: '' } },
      { type: 'response.reasoning_summary_text.delta', ...where, delta: part.text },
      { type: 'response.reasoning_summary_text.done', ...where, text: part.text },
      { type: 'response.reasoning_summary_part.done', ...where, part },
    );
  }
  return events;
}
