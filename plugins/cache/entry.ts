// A stored answer: its body as the JSON text the client got, and the usage it was metered with.
// The body stays text inside the entry so that a JSON hit is sent without being parsed again.
import type { JsonReply, StreamReply } from '../../core/reply.js';
import { jsonReply } from '../../core/reply.js';
import { replayedChat, replayedResponse } from '../../core/stream/json-answer.js';
import { ResponsesEventStream } from '../../core/stream/client-format-streams.js';
import { resolvedBody } from '../../core/stream/stream-fold.js';
import type { Usage } from '../../core/types/usage.js';

export interface Entry {
  body: string;
  usage: Usage | null;
}

/** A stored entry read back; null for text that is no entry (a shared Redis holds what anyone wrote). */
export function parseEntry(text: string): Entry | null {
  try {
    const value = JSON.parse(text) as Partial<Entry> | null;
    return typeof value?.body === 'string' && value.usage !== undefined ? (value as Entry) : null;
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
 * The reply that answers `operation` from the entry: the JSON as stored, or for a stream
 * request the events that carry it; null when it has no exact stream form (then it is a miss).
 */
export function replyFrom(entry: Entry, operation: string, stream: boolean, name: string): JsonReply | StreamReply | null {
  if (!stream) return jsonReply(undefined, entry.usage, entry.body);
  const body: unknown = JSON.parse(entry.body);
  if (operation === 'responses') return replayedResponse(body, new ResponsesEventStream(name));
  if (operation !== 'chat') return null;
  try {
    return replayedChat(name, body, entry.usage);
  } catch {
    // Content given as a list of parts has no delta form: not replayable exactly.
    return null;
  }
}
