// A stored answer as it was sent: its shape, the usage it was metered with, the target that
// answered, and the payload: the JSON body's bytes or the stream's events as the client's format
// framed them. A stream also keeps where its usage-only chunks are (a client that did not ask for
// usage is replayed it without them) and its folded object as JSON, for the audit entry of a hit.
// Stored as text (Redis), it is one line of JSON with the shape, usage, target and, for a stream,
// the usage chunks' ranges and the folded body's length in bytes; then that body and the payload
// as they are (not escaped into a JSON string), so a read parses the first line only.
import type { JsonReply, RecordedReply } from '../../core/reply.js';
import { jsonReply, recordedReply } from '../../core/reply.js';
import { resolvedBody } from '../../core/stream/stream-fold.js';
import type { Usage } from '../../core/types/usage.js';
import type { EventRange } from './usage-events.js';
import { withoutEvents } from './usage-events.js';

/** The target that gave the answer, by name: the entry's key names the routed one, which failover may have passed over. */
export interface AnsweredBy {
  /** The provider instance (`openai`, `openai-eu`). */
  provider: string;
  /** The model name the provider was sent. */
  model: string;
  /** The model id the call resolved to (`<prefix>/<model>`, or a virtual model's id). */
  id: string;
}

interface EntryBase {
  usage: Usage | null;
  /** Null in an entry written before entries kept it (a shared Redis may still hold some). */
  answeredBy: AnsweredBy | null;
  payload: Buffer;
}

interface JsonEntry extends EntryBase {
  shape: 'json';
}

interface EventsEntry extends EntryBase {
  /** A stream's events (`stream` in entries of versions before 2026-12, which held no folded body). */
  shape: 'events';
  /** The usage-only chunks in the payload, which a client that did not ask for usage is not sent. */
  usageEvents: EventRange[];
  /** The stream folded into its final object, as JSON: the response body a hit's audit entry records. */
  body: Buffer;
}

export type Entry = JsonEntry | EventsEntry;

/** What an entry holds in memory, in bytes: its payload, a stream's folded body and about what its head takes. */
export function entrySize(entry: Entry): number {
  return entry.payload.length + (entry.shape === 'events' ? entry.body.length : 0) + HEAD_BYTES;
}
const HEAD_BYTES = 512;

export function entryText(entry: Entry): string {
  const head = { shape: entry.shape, usage: entry.usage, answered_by: entry.answeredBy };
  // JSON.stringify escapes every line break, so the first one ends the head.
  if (entry.shape === 'json') return JSON.stringify(head) + '\n' + entry.payload.toString('utf8');
  const streamHead = { ...head, usage_events: entry.usageEvents, body_bytes: entry.body.length };
  return JSON.stringify(streamHead) + '\n' + entry.body.toString('utf8') + entry.payload.toString('utf8');
}

/**
 * A stored entry read back; null for text that is no entry (a shared Redis holds what anyone
 * wrote), and for a stream as versions before 2026-12 stored it (`"shape":"stream"`, without its
 * usage chunks and folded body). Those versions read an `events` entry as no entry in turn: a
 * replica of each version on one Redis misses the other's streams rather than misread them.
 */
export function parseEntry(text: string): Entry | null {
  const end = text.indexOf('\n');
  if (end === -1) return null;
  try {
    const head = JSON.parse(text.slice(0, end)) as Record<string, unknown> | null;
    if ((head?.['shape'] !== 'json' && head?.['shape'] !== 'events') || !isUsage(head['usage'])) return null;
    const usage = head['usage'];
    const answeredBy = head['answered_by'] ?? null;
    if (answeredBy !== null && !isAnsweredBy(answeredBy)) return null;
    const rest = Buffer.from(text.slice(end + 1), 'utf8');
    if (head['shape'] === 'json') return { shape: 'json', usage, answeredBy, payload: rest };
    const bodyBytes = head['body_bytes'];
    const usageEvents = head['usage_events'];
    if (!Number.isInteger(bodyBytes) || (bodyBytes as number) < 0 || (bodyBytes as number) > rest.length) return null;
    const payload = rest.subarray(bodyBytes as number);
    if (!isRanges(usageEvents, payload.length)) return null;
    return { shape: 'events', usage, answeredBy, payload, usageEvents, body: rest.subarray(0, bodyBytes as number) };
  } catch {
    return null;
  }
}

/** Byte ranges in order, each inside `length` bytes. */
function isRanges(value: unknown, length: number): value is EventRange[] {
  if (!Array.isArray(value)) return false;
  let from = 0;
  for (const range of value) {
    if (!Array.isArray(range) || range.length !== 2) return false;
    const [start, end] = range as unknown[];
    if (!Number.isInteger(start) || !Number.isInteger(end) || (start as number) < from || (end as number) < (start as number) || (end as number) > length) return false;
    from = end as number;
  }
  return true;
}

/**
 * Null, or usage as the gateway meters it (its token counts are numbers): a hit meters and prices
 * with it, and other usage (a string, a provider's own field names) would be recorded as given.
 */
function isUsage(value: unknown): value is Usage | null {
  if (value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  const { input_tokens: input, output_tokens: output, total_tokens: total } = value as Record<string, unknown>;
  return typeof input === 'number' && typeof output === 'number' && typeof total === 'number';
}

function isAnsweredBy(value: unknown): value is AnsweredBy {
  if (typeof value !== 'object' || value === null) return false;
  const { provider, model, id } = value as Record<string, unknown>;
  return typeof provider === 'string' && typeof model === 'string' && typeof id === 'string';
}

/** The answer's body as JSON bytes: bytes forwarded untouched, or the (folded) object. */
export function bodyBytes(responseBody: unknown): Buffer {
  if (Buffer.isBuffer(responseBody)) return ownBytes(responseBody);
  return ownBytes(typeof responseBody === 'string' ? responseBody : JSON.stringify(resolvedBody(responseBody)));
}

/**
 * A copy in memory of its own: a small Buffer is often a slice of Node's shared 8 KB pool, and
 * keeping it would keep the whole pool chunk alive for as long as the entry lives.
 */
export function ownBytes(data: Buffer | string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(data));
  if (typeof data === 'string') bytes.write(data, 'utf8');
  else data.copy(bytes);
  return bytes;
}

/**
 * The reply that answers from the entry, when it holds the shape asked for: the JSON as stored, or
 * the stored events replayed whole, with the usage chunks only for a client that asked for them
 * (`includeUsage`). Either is metered with the stored usage.
 */
export function replyFrom(entry: Entry, stream: boolean, includeUsage: boolean): JsonReply | RecordedReply | null {
  if (entry.shape !== (stream ? 'events' : 'json')) return null;
  // The stored usage is shared by every hit: each gets its own copy to meter with.
  const usage = entry.usage === null ? null : { ...entry.usage };
  if (entry.shape === 'json') return jsonReply(undefined, usage, entry.payload);
  return recordedReply(includeUsage ? entry.payload : withoutEvents(entry.payload, entry.usageEvents), usage, entry.body);
}
