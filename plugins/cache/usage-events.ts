// Where a stored stream's usage-only chunks are. An entry keeps the usage chunk whether or not the
// first client asked for it; a client that did not (`stream_options.include_usage`) is replayed
// the stream without it, as the relay would have hidden it. Found once, when the entry is stored.
import { isUsageOnly } from '../../core/stream/chat-format.js';
import { SseParser } from '../../core/stream/sse-parser.js';
import type { SseEvent, StreamTranslator } from '../../core/stream/translator.js';
import type { ChatCompletionChunk } from '../../core/types/chat.js';

/** A byte range of the stored events: [start, end). */
export type EventRange = readonly [number, number];

/** The usage-only chunks of a chat stream's events, in order; none in any other stream. */
export function usageOnlyEvents(events: Buffer): EventRange[] {
  // latin1: one character a byte, so indexes are byte offsets.
  const text = events.toString('latin1');
  const found: EventRange[] = [];
  for (let start = 0; start < text.length; ) {
    const end = eventEnd(text, start);
    // Only an event that names usage is read; one with an escape could name it in disguise.
    const event = text.slice(start, end);
    if ((event.includes('usage') || event.includes('\\')) && isUsageOnlyEvent(events.subarray(start, end))) found.push([start, end]);
    start = end;
  }
  return found;
}

/** The events without the ranges given (in order, not overlapping). */
export function withoutEvents(events: Buffer, ranges: readonly EventRange[]): Buffer {
  if (ranges.length === 0) return events;
  const kept: Buffer[] = [];
  let from = 0;
  for (const [start, end] of ranges) {
    kept.push(events.subarray(from, start));
    from = end;
  }
  kept.push(events.subarray(from));
  return Buffer.concat(kept);
}

/** Just after the blank line that ends the event starting at `from` ("\n\n" or "\n\r\n"), or the end of the text. */
function eventEnd(text: string, from: number): number {
  for (let nl = text.indexOf('\n', from); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    const next = text.charCodeAt(nl + 1);
    if (next === 10) return nl + 2;
    if (next === 13 && text.charCodeAt(nl + 2) === 10) return nl + 3;
  }
  return text.length;
}

function isUsageOnlyEvent(event: Buffer): boolean {
  const reader = new DataReader();
  new SseParser().feed(event, reader, NO_SINK);
  if (reader.data === null) return false;
  try {
    const chunk = JSON.parse(reader.data) as Partial<ChatCompletionChunk> | null;
    return typeof chunk === 'object' && chunk !== null && Array.isArray(chunk.choices) && isUsageOnly(chunk as ChatCompletionChunk);
  } catch {
    return false;
  }
}

/** Keeps the data of the event the parser dispatched. */
class DataReader implements StreamTranslator<unknown> {
  data: string | null = null;

  onEvent(event: SseEvent): void {
    this.data = event.data;
  }

  onEnd(): void {}
}

const NO_SINK = { emit(): void {}, usage(): void {} };
