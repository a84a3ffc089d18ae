// Relays one upstream SSE stream to the client. A write the socket cannot take pauses the
// upstream until 'drain' (backpressure); a client that goes away cancels the upstream request
// through ctx.abort.
//
// Two ways through, chosen by the translator:
// - translated: each upstream chunk is parsed once, handed to the provider's translator, framed
//   by the operation's format and written as one write;
// - pass-through (the upstream speaks the client's format): whole events go out as the
//   provider's own bytes, and only events holding a watched pattern (usage, errors) are parsed
//   on the way. The bytes are kept for a StreamFold, which builds the final object when a
//   log tap asks for it, off the request path. An event split across upstream chunks is held
//   back until it is whole, so a watched event is always read (and hidden, or turned into the
//   contract's error event) before any of it went out.
//
// An upstream body from core/http-client.ts is consumed in push mode (no promise per chunk);
// any other source (an in-process generator such as the demo provider's) is iterated.
import { isAscii } from 'node:buffer';
import type { RequestContext } from '../context.js';
import { clientClosed, isGatewayError, toGatewayError } from '../errors.js';
import type { GatewayError } from '../errors.js';
import { upstreamError } from '../http-client.js';
import type { StreamReply } from '../reply.js';
import { sendError, startEventStream } from '../respond.js';
import type { SecretText } from '../secret-text.js';
import type { BodyConsumer } from '../upstream-body.js';
import { UpstreamBody } from '../upstream-body.js';
import type { FormatSink, StreamFormat } from './format.js';
import { eventEnd, eventStart, lastEventEnd } from './sse-bytes.js';
import { SseParser } from './sse-parser.js';
import type { StreamCopy } from './stream-copy.js';
import type { StreamFold } from './stream-fold.js';
import { isPassthrough } from './translator.js';
import type { PassthroughTranslator } from './translator.js';

const EVENT_END = Buffer.from('\n\n');
// The upstream's own end of stream: a `data: [DONE]` line (a token that reads "[DONE]" is JSON text, not this).
const DONE_LINE = /(?:^|\n)data: ?\[DONE\]\r?\n/;
// A key with an escape in it (`"us\u0061ge":`) could be a watched one in disguise: its event is read too.
const ESCAPED_KEY = /\\[^"\n]*"\s*:/g;

/** `secrets`: credentials an error event must not quote. */
export function relayStream(ctx: RequestContext, reply: StreamReply, format: StreamFormat, secrets: SecretText): Promise<void> {
  const translator = reply.translator;
  const copy = ctx.streamCopy;
  // Pass-through: the relay copies the upstream's whole events; translated: the format copies what it frames.
  const raw = isPassthrough(translator) ? new RawEvents(translator, translator.fold(), copy) : null;
  const relay = new StreamRelay(ctx, reply, format.createSink(ctx, raw === null ? copy : null), raw, secrets);
  return reply.source instanceof UpstreamBody ? relay.push(reply.source) : relay.pull(reply.source);
}

/** The pass-through side of a relay: the event bytes held back, the fold, what was seen. */
class RawEvents {
  readonly translator: PassthroughTranslator<unknown>;
  readonly fold: StreamFold;
  readonly #copy: StreamCopy | null;
  /** The start of an event the upstream has not finished yet. */
  carry: Buffer | null = null;
  /** The upstream's own `[DONE]` went out: no trailer after it. */
  doneSent = false;

  constructor(translator: PassthroughTranslator<unknown>, fold: StreamFold, copy: StreamCopy | null) {
    this.translator = translator;
    this.fold = fold;
    this.#copy = copy;
  }

  /** Whole events the client got (or the format hid): the fold and the copy hold the same bytes. */
  keep(events: Buffer | string): void {
    this.fold.add(events);
    this.#copy?.add(events);
  }

  /**
   * Where the translator's watched pattern (or, in text with escapes, an escaped key) first
   * matches at or after `from`, or -1. A RegExp over the latin1 text (one character a byte) runs
   * several times faster than Buffer#indexOf for needles that start with a quote, the commonest
   * byte of JSON.
   */
  watchedAt(text: string, from: number, escapes: boolean): number {
    const at = firstMatch(this.translator.watched, text, from);
    if (!escapes) return at;
    const escaped = firstMatch(ESCAPED_KEY, text, from);
    return at === -1 || (escaped !== -1 && escaped < at) ? escaped : at;
  }
}

function firstMatch(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? -1 : match.index;
}

class StreamRelay implements BodyConsumer {
  readonly #ctx: RequestContext;
  readonly #reply: StreamReply;
  readonly #sink: FormatSink;
  readonly #raw: RawEvents | null;
  readonly #secrets: SecretText;
  readonly #parser = new SseParser();
  #body: UpstreamBody | null = null;
  #done = false;
  #resolve: (() => void) | null = null;
  readonly #onDrain = (): void => {
    this.#body?.resume();
  };

  constructor(ctx: RequestContext, reply: StreamReply, sink: FormatSink, raw: RawEvents | null, secrets: SecretText) {
    this.#secrets = secrets;
    this.#ctx = ctx;
    this.#reply = reply;
    this.#sink = sink;
    this.#raw = raw;
  }

  push(body: UpstreamBody): Promise<void> {
    return new Promise((resolve) => {
      this.#resolve = resolve;
      this.#body = body;
      body.consume(this);
    });
  }

  async pull(source: AsyncIterable<Buffer | string>): Promise<void> {
    try {
      for await (const chunk of source) {
        // An in-process source does not see the cancellation: stop it here.
        if (this.#ctx.abort.aborted) break;
        if (!this.#relay(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)) await drained(this.#ctx);
        if (this.#done) return;
      }
      if (this.#ctx.abort.aborted) this.#cut();
      else this.end();
    } catch (err) {
      this.error(err);
    }
    this.#finish();
  }

  data(chunk: Buffer): boolean {
    if (this.#done || this.#relay(chunk)) return true;
    this.#ctx.res.once('drain', this.#onDrain);
    return false;
  }

  end(): void {
    if (this.#done) return;
    const raw = this.#raw;
    if (raw !== null && raw.carry !== null) {
      // A last event without its blank line still counts, as it does for the parser; it gets
      // one, or the trailer would run into it.
      const rest = Buffer.concat([raw.carry, EVENT_END]);
      raw.carry = null;
      this.#rawEvents(raw, rest);
      if (this.#done) return;
    }
    try {
      this.#parser.end(this.#reply.translator, this.#sink);
      this.#reply.translator.onEnd(this.#sink);
    } catch (err) {
      this.error(err);
      return;
    }
    const trailer = raw !== null && raw.doneSent ? '' : this.#sink.trailer();
    this.#ctx.streamCopy?.add(trailer);
    this.#write(this.#sink.take() + trailer);
    this.#ctx.res.end();
    this.#finish();
  }

  error(err: unknown): void {
    if (this.#done) return;
    const ctx = this.#ctx;
    if (ctx.abort.aborted) {
      this.#cut();
      return;
    }
    this.#sendError(toGatewayError(upstreamError(ctx.target?.provider.name ?? 'unknown', err)));
    this.#finish();
  }

  /**
   * The request was cancelled mid-stream. By the gateway (the shutdown deadline: the reason is
   * the error to tell): the client gets it as the last event. By the client going away: the
   * log stage records 499. Either way the usage is what the provider reported until now.
   */
  #cut(): void {
    const ctx = this.#ctx;
    const reason = ctx.abort.reason;
    if (isGatewayError(reason)) this.#sendError(reason);
    else {
      ctx.status = 499;
      ctx.error = clientClosed();
    }
    ctx.partial = true;
    this.#finish();
  }

  /** What the translator emitted before the failure is the client's: it goes first, and the error event is the last one. */
  #sendError(err: GatewayError): void {
    const pending = this.#sink.take();
    if (pending !== '') this.#write(pending);
    sendError(this.#ctx, this.#secrets.redactError(err));
  }

  /** One upstream chunk through; false when the socket is full. */
  #relay(chunk: Buffer): boolean {
    if (this.#raw !== null) return this.#rawData(this.#raw, chunk);
    try {
      this.#parser.feed(chunk, this.#reply.translator, this.#sink);
    } catch (err) {
      this.error(err);
      return true;
    }
    const text = this.#sink.take();
    // A translator that forwards an event's own JSON text mostly writes back exactly what came:
    // the provider's own bytes then go out as they are, without encoding the text again.
    return text !== '' && text === this.#parser.whole ? this.#writeBytes(chunk) : this.#write(text);
  }

  /** Pass-through: the chunk's whole events go out as they came; a partial one waits for its end. */
  #rawData(raw: RawEvents, chunk: Buffer): boolean {
    const bytes = raw.carry === null ? chunk : Buffer.concat([raw.carry, chunk]);
    const end = lastEventEnd(bytes);
    if (end === -1) {
      raw.carry = bytes;
      return true;
    }
    raw.carry = end === bytes.length ? null : bytes.subarray(end);
    return this.#rawEvents(raw, end === bytes.length ? bytes : bytes.subarray(0, end));
  }

  /**
   * Whole events: the ones holding a watched pattern go through the translator and the format
   * (which may hide them, or throw the provider's error), the others are written untouched.
   */
  #rawEvents(raw: RawEvents, events: Buffer): boolean {
    let ok = true;
    // Bytes before `unsent` went out; the rest waits, so that a chunk whose watched events are
    // all kept goes out in one write (each res.write costs a chunked-encoding frame).
    let unsent = 0;
    let from = 0;
    const text = events.toString('latin1');
    const escapes = text.indexOf('\\') !== -1;
    for (let at = raw.watchedAt(text, 0, escapes); at !== -1; at = raw.watchedAt(text, from, escapes)) {
      const start = eventStart(events, at);
      const end = eventEnd(events, at);
      const parser = this.#parser;
      const dispatched = parser.events;
      try {
        parser.feed(events.subarray(start, end), this.#reply.translator, this.#sink);
      } catch (err) {
        // The client gets the events before this one, then the error event; the folded object
        // holds what the client got.
        if (start > unsent) this.#writeBytes(events.subarray(unsent, start));
        raw.keep(events.subarray(0, start));
        this.error(err);
        return true;
      }
      // What the format kept goes out as the provider's bytes; what it hid does not. Bytes that
      // were no event (a comment line) go out too.
      if (this.#sink.take() === '' && parser.events !== dispatched) {
        if (start > unsent) ok = this.#writeBytes(events.subarray(unsent, start)) && ok;
        unsent = end;
      }
      from = end;
    }
    if (unsent < events.length) ok = this.#writeBytes(unsent === 0 ? events : events.subarray(unsent)) && ok;
    raw.keep(isAscii(events) ? text : events);
    if (!raw.doneSent && DONE_LINE.test(text)) raw.doneSent = true;
    return ok;
  }

  /** Writes framed text (starting the event stream, even with no text); false when the socket is full. */
  #write(text: string): boolean {
    // A Buffer, not the string: for a string, Node writes the chunked-encoding frame and the
    // text in two syscalls; for a Buffer, one writev.
    if (text !== '') return this.#writeBytes(Buffer.from(text, 'utf8'));
    this.#start();
    return true;
  }

  #writeBytes(bytes: Buffer): boolean {
    this.#start();
    const res = this.#ctx.res;
    return res.destroyed || res.write(bytes);
  }

  #start(): void {
    if (!this.#ctx.res.headersSent) startEventStream(this.#ctx, this.#reply.headers);
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    this.#ctx.responseBody = this.#raw !== null ? this.#raw.fold : this.#sink.result();
    this.#ctx.usage = this.#sink.usageResult();
    this.#resolve?.();
  }
}

/** Resolves on the socket's 'drain', or when the request is cancelled (the drain never comes). */
function drained(ctx: RequestContext): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      ctx.res.off('drain', done);
      ctx.abort.offAbort(done);
      resolve();
    };
    ctx.res.once('drain', done);
    ctx.abort.onAbort(done);
  });
}
