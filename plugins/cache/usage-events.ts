// Where a stored stream's usage-only chunks are. An entry keeps the usage chunk whether or not the
// first client asked for it; a client that did not (`stream_options.include_usage`) is replayed
// the stream without it, as the relay would have hidden it. Found once, when the entry is stored.
import { isUsageOnly } from '../../core/stream/chat-format.js';
import { ESCAPED_KEY } from '../../core/stream/raw-events.js';
import { eventEnd } from '../../core/stream/sse-bytes.js';
import { SseParser } from '../../core/stream/sse-parser.js';
import type { SseEvent, StreamTranslator } from '../../core/stream/translator.js';
import type { ChatCompletionChunk } from '../../core/types/chat.js';

/** A byte range of the stored events: [start, end). */
export type EventRange = readonly [number, number];

// A usage object, as the relay watches for it (`"usage":null`, on every chunk once usage is asked, is none).
const USAGE_OBJECT = /"usage"\s*:\s*\{/;
const ESCAPED = new RegExp(ESCAPED_KEY.source);

/** The usage-only chunks of a chat stream's events, in order; none in any other stream. */
export function usageOnlyEvents(events: Buffer): EventRange[] {
  // latin1: one character a byte, so the text's indexes are the buffer's.
  const text = events.toString('latin1');
  const found: EventRange[] = [];
  for (let start = 0; start < events.length; ) {
    const end = eventEnd(events, start);
    if (namesUsage(text.slice(start, end)) && isUsageOnlyEvent(events.subarray(start, end))) found.push([start, end]);
    start = end;
  }
  return found;
}

/** Only an event with a usage object is read, as the relay reads only those; a key with an escape could name one in disguise. */
function namesUsage(event: string): boolean {
  return USAGE_OBJECT.test(event) || (event.includes('\\') && ESCAPED.test(event));
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

function isUsageOnlyEvent(event: Buffer): boolean {
  const reader = new DataReader();
  const parser = new SseParser();
  parser.feed(event, reader, NO_SINK);
  // An event without its blank line (the stream's last) still counts, as it does for the relay.
  parser.end(reader, NO_SINK);
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
