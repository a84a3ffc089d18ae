// What a stage or a provider answers with. The core writes it; stages never touch `res`
// for model operations, so that price and log always see one consistent outcome.
import type { StreamTranslator } from './stream/translator.js';
import type { Usage } from './types/usage.js';

export interface JsonReply {
  readonly kind: 'json';
  status: number;
  /**
   * The parsed body, or undefined when only `raw` is known: a body forwarded untouched is not
   * parsed on the request path (replyBody() parses it for whoever needs the object).
   */
  body: unknown;
  /** The exact bytes to send, when the body is forwarded untouched. */
  raw: Buffer | string | null;
  usage: Usage | null;
  /** Extra response headers (e.g. x-cache). */
  headers: Record<string, string> | null;
}

export interface StreamReply {
  readonly kind: 'stream';
  /** Upstream SSE bytes. */
  source: AsyncIterable<Buffer | string>;
  translator: StreamTranslator<unknown>;
  headers: Record<string, string> | null;
  /**
   * Set by `invoke`: the stream already read up to its first output for the client, which the
   * pipeline writes (with `headers` as they are then). Its source and translator are in use.
   */
  primed?: PrimedStream;
}

/** A stream read up to its first output for the client (core/stream/relay.ts); nothing written yet. */
export interface PrimedStream {
  /** Writes the held output, then the rest of the stream; `headers`: the reply's extra ones. Rejects once cancelled. */
  run(headers: Record<string, string> | null): Promise<void>;
  /**
   * Lets go of a stream nobody will run: its upstream call is closed now, and what it copied for
   * `ctx.streamCopy` is dropped. Nothing once it runs. The pipeline calls it (`invoke`).
   */
  cancel(): void;
}

/**
 * A stream known whole before it is sent (a stored answer replayed): the core writes its head and
 * every event in one go, with nothing to relay or read on the way.
 */
export interface RecordedReply {
  readonly kind: 'recorded';
  /** The events exactly as this client is to get them, the trailer included. */
  events: Buffer;
  usage: Usage | null;
  /** The stream folded into its final object, as JSON: what the log stage records as the response body. */
  body: Buffer;
  headers: Record<string, string> | null;
}

/**
 * The stage already wrote (and finished) the response itself, e.g. a passthrough proxy; it
 * has set ctx.status, ctx.responseBody and ctx.usage for the stages that follow. The server
 * sets x-request-id up front only on raw-body routes; on other operation routes a stage that
 * writes the response puts it on the head itself.
 */
export interface HandledReply {
  readonly kind: 'handled';
  headers: null;
}

export type Reply = JsonReply | StreamReply | RecordedReply | HandledReply;

export const HANDLED: HandledReply = Object.freeze({ kind: 'handled', headers: null });

/** The reply's body as an object, parsed from `raw` on first use. */
export function replyBody(reply: JsonReply): unknown {
  if (reply.body === undefined && reply.raw !== null) reply.body = JSON.parse(reply.raw.toString());
  return reply.body;
}

export function jsonReply(body: unknown, usage: Usage | null = null, raw: Buffer | string | null = null, status = 200): JsonReply {
  return { kind: 'json', status, body, raw, usage, headers: null };
}

export function recordedReply(events: Buffer, usage: Usage | null, body: Buffer): RecordedReply {
  return { kind: 'recorded', events, usage, body, headers: null };
}

export function streamReply(source: AsyncIterable<Buffer | string>, translator: StreamTranslator<unknown>): StreamReply {
  return { kind: 'stream', source, translator, headers: null };
}
