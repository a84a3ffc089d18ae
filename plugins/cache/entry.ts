// A stored answer as it was sent: its shape, the usage it was metered with, the target that
// answered, and the payload: the JSON body's bytes or the stream's events as the client's format
// framed them. Stored as text (Redis), it is one line of JSON with the shape, usage and target,
// then the payload as it is (not escaped into a JSON string), so a read parses the first line only.
import type { JsonReply, StreamReply } from '../../core/reply.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import { ChatChunkStream, ResponsesEventStream } from '../../core/stream/client-format-streams.js';
import { resolvedBody } from '../../core/stream/stream-fold.js';
import type { Usage } from '../../core/types/usage.js';
import { usageFromChat, usageFromResponses } from '../../core/usage-mapping.js';

export type Shape = 'json' | 'stream';

/** The target that gave the answer, by name: the entry's key names the routed one, which failover may have passed over. */
export interface AnsweredBy {
  /** The provider instance (`openai`, `openai-eu`). */
  provider: string;
  /** The model name the provider was sent. */
  model: string;
  /** The model id the call resolved to (`<prefix>/<model>`, or a virtual model's id). */
  id: string;
}

export interface Entry {
  shape: Shape;
  usage: Usage | null;
  /** Null in an entry written before entries kept it (a shared Redis may still hold some). */
  answeredBy: AnsweredBy | null;
  payload: Buffer;
}

/** What an entry holds in memory, in bytes: its payload and about what its head takes. */
export function entrySize(entry: Entry): number {
  return entry.payload.length + HEAD_BYTES;
}
const HEAD_BYTES = 512;

export function entryText(entry: Entry): string {
  // JSON.stringify escapes every line break, so the first one ends the head.
  return JSON.stringify({ shape: entry.shape, usage: entry.usage, answered_by: entry.answeredBy }) + '\n' + entry.payload.toString('utf8');
}

/** A stored entry read back; null for text that is no entry (a shared Redis holds what anyone wrote). */
export function parseEntry(text: string): Entry | null {
  const end = text.indexOf('\n');
  if (end === -1) return null;
  try {
    const head = JSON.parse(text.slice(0, end)) as (Partial<Entry> & { answered_by?: unknown }) | null;
    if ((head?.shape !== 'json' && head?.shape !== 'stream') || head.usage === undefined) return null;
    const answeredBy = head.answered_by ?? null;
    if (answeredBy !== null && !isAnsweredBy(answeredBy)) return null;
    return { shape: head.shape, usage: head.usage, answeredBy, payload: Buffer.from(text.slice(end + 1), 'utf8') };
  } catch {
    return null;
  }
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
 * The reply that answers `operation` from the entry: the JSON as stored, or the stored events
 * through the core's translator for the client's format, which hides the usage chunk from a
 * client that did not ask for it and meters the replay with the stored usage. Null when the
 * entry is not of the shape asked for.
 */
export function replyFrom(entry: Entry, operation: string, stream: boolean, name: string): JsonReply | StreamReply | null {
  if (entry.shape !== (stream ? 'stream' : 'json')) return null;
  // The stored usage is shared by every hit: each gets its own copy to meter with.
  const usage = entry.usage === null ? null : { ...entry.usage };
  if (entry.shape === 'json') return jsonReply(undefined, usage, entry.payload);
  const events = single(entry.payload);
  if (operation === 'chat') return streamReply(events, new ChatChunkStream(name, (u) => usage ?? usageFromChat(u)));
  if (operation === 'responses') return streamReply(events, new ResponsesEventStream(name, (u) => usage ?? usageFromResponses(u)));
  return null;
}

async function* single(bytes: Buffer): AsyncIterable<Buffer> {
  yield bytes;
}
