// A stored answer as it was sent: one line of JSON with its shape and the usage it was metered
// with, then the payload, which is the JSON body's text or the stream's events as the client's
// format framed them. The payload is stored as it is (not escaped into a JSON string), so a hit
// parses the first line only and sends the rest untouched.
import type { JsonReply, StreamReply } from '../../core/reply.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import { ChatChunkStream, ResponsesEventStream } from '../../core/stream/client-format-streams.js';
import { resolvedBody } from '../../core/stream/stream-fold.js';
import type { Usage } from '../../core/types/usage.js';
import { usageFromChat, usageFromResponses } from '../../core/usage-mapping.js';

export type Shape = 'json' | 'stream';

export interface Entry {
  shape: Shape;
  usage: Usage | null;
  payload: string;
}

export function entryText(entry: Entry): string {
  // JSON.stringify escapes every line break, so the first one ends the head.
  return JSON.stringify({ shape: entry.shape, usage: entry.usage }) + '\n' + entry.payload;
}

/** A stored entry read back; null for text that is no entry (a shared Redis holds what anyone wrote). */
export function parseEntry(text: string): Entry | null {
  const end = text.indexOf('\n');
  if (end === -1) return null;
  try {
    const head = JSON.parse(text.slice(0, end)) as Partial<Entry> | null;
    if ((head?.shape !== 'json' && head?.shape !== 'stream') || head.usage === undefined) return null;
    return { shape: head.shape, usage: head.usage, payload: text.slice(end + 1) };
  } catch {
    return null;
  }
}

/** The answer's body as JSON text: bytes forwarded untouched, or the (folded) object. */
export function bodyText(responseBody: unknown): string {
  if (Buffer.isBuffer(responseBody)) return responseBody.toString('utf8');
  if (typeof responseBody === 'string') return responseBody;
  return JSON.stringify(resolvedBody(responseBody));
}

/**
 * The reply that answers `operation` from the entry: the JSON as stored, or the stored events
 * through the core's translator for the client's format, which hides the usage chunk from a
 * client that did not ask for it and meters the replay with the stored usage. Null when the
 * entry is not of the shape asked for.
 */
export function replyFrom(entry: Entry, operation: string, stream: boolean, name: string): JsonReply | StreamReply | null {
  if (entry.shape !== (stream ? 'stream' : 'json')) return null;
  if (entry.shape === 'json') return jsonReply(undefined, entry.usage, entry.payload);
  const usage = entry.usage;
  const events = single(entry.payload);
  if (operation === 'chat') return streamReply(events, new ChatChunkStream(name, (u) => usage ?? usageFromChat(u)));
  if (operation === 'responses') return streamReply(events, new ResponsesEventStream(name, (u) => usage ?? usageFromResponses(u)));
  return null;
}

async function* single(text: string): AsyncIterable<string> {
  yield text;
}
