// Relays one upstream SSE stream to the client. A write the socket cannot take pauses the
// upstream until 'drain' (backpressure); a client that goes away cancels the upstream request
// through ctx.abort.
//
// A relay is opened, may be primed, then run. Priming (invoke does it) reads the stream until
// its first output for the client exists, or it ended, holding that output: nothing is written,
// not even the head. A failure before any output rejects the priming and stops the upstream
// call, so the client has been sent nothing and another target may answer. Running writes what
// was held, then relays the rest as it comes. A primed stream that is not to be run is
// cancelled, which stops its upstream call too.
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
import type { PrimedStream, StreamReply } from '../reply.js';
import { sendError, startEventStream } from '../respond.js';
import type { SecretText } from '../secret-text.js';
import type { BodyConsumer } from '../upstream-body.js';
import { UpstreamBody } from '../upstream-body.js';
import type { FormatSink, StreamFormat } from './format.js';
import { RawEvents } from './raw-events.js';
import { eventEnd, eventStart, lastEventEnd } from './sse-bytes.js';
import { SseParser } from './sse-parser.js';
import { isPassthrough } from './translator.js';

const EVENT_END = Buffer.from('\n\n');
// The upstream's own end of stream: a `data: [DONE]` line (a token that reads "[DONE]" is JSON text, not this).
const DONE_LINE = /(?:^|\n)data: ?\[DONE\]\r?\n/;

/**
 * A relay for `reply`, to prime and then run. `provider`: whose stream it is, for an error the
 * upstream gave without naming it; `secrets`: credentials an error event must not quote.
 */
export function openRelay(ctx: RequestContext, reply: StreamReply, format: StreamFormat, secrets: SecretText, provider: string): StreamRelay {
  const translator = reply.translator;
  const copy = ctx.streamCopy;
  // Pass-through: the relay copies the upstream's whole events; translated: the format copies what it frames.
  const raw = isPassthrough(translator) ? new RawEvents(translator, translator.fold(), copy) : null;
  return new StreamRelay(ctx, reply, format.createSink(ctx, raw === null ? copy : null), raw, secrets, provider);
}

/** Relays a stream nobody primed (a stage's own, such as `replayedChat`'s) at once. */
export function relayStream(ctx: RequestContext, reply: StreamReply, format: StreamFormat, secrets: SecretText): Promise<void> {
  return openRelay(ctx, reply, format, secrets, ctx.target?.provider.name ?? 'unknown').run(reply.headers);
}

interface Priming {
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class StreamRelay implements BodyConsumer, PrimedStream {
  readonly #ctx: RequestContext;
  readonly #reply: StreamReply;
  readonly #sink: FormatSink;
  readonly #raw: RawEvents | null;
  readonly #secrets: SecretText;
  readonly #provider: string;
  readonly #parser = new SseParser();
  #headers: Record<string, string> | null = null;
  /** Output for the client not written yet: held from the start until run(), null once running. */
  #held: Buffer[] | null = [];
  /** How a stream that ended while its output was held ends: done by run(), after that output. */
  #finale: (() => void) | null = null;
  #priming: Priming | null = null;
  /** Reading began (by prime() or run()). */
  #reading = false;
  /** The upstream waits for run(): output came after the priming had settled. */
  #waitsForRun = false;
  /** cancel() let the stream go before it ran. */
  #cancelled = false;
  #body: UpstreamBody | null = null;
  /** Pull mode: wakes the loop waiting for a drain or for run(). */
  #wakePull: (() => void) | null = null;
  #done = false;
  #resolve: (() => void) | null = null;
  readonly #onDrain = (): void => {
    this.#resume();
  };

  constructor(ctx: RequestContext, reply: StreamReply, sink: FormatSink, raw: RawEvents | null, secrets: SecretText, provider: string) {
    this.#secrets = secrets;
    this.#ctx = ctx;
    this.#reply = reply;
    this.#sink = sink;
    this.#raw = raw;
    this.#provider = provider;
  }

  /**
   * Reads the stream until its first output for the client exists or it ended (resolves), or
   * until it failed before any output (rejects with the error, the upstream call stopped).
   * Nothing is written to the client.
   */
  prime(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#priming = { resolve, reject };
      this.#read();
    });
  }

  /** Writes what priming held (the head with it), then relays the rest; `headers`: the reply's extra ones. */
  run(headers: Record<string, string> | null): Promise<void> {
    // A plugin sending a stream it had given up by invoking again: a bug of its own, told, not a stream that never ends.
    if (this.#cancelled) return Promise.reject(new Error('a primed stream was sent after it was cancelled (by a later invoke)'));
    this.#headers = headers;
    return new Promise((resolve) => {
      this.#resolve = resolve;
      const held = this.#held!;
      this.#held = null;
      if (!this.#reading) {
        this.#read();
        return;
      }
      const written = held.length === 0 || this.#writeBytes(held.length === 1 ? held[0]! : Buffer.concat(held));
      const finale = this.#finale;
      if (finale !== null) {
        finale();
        this.#finish();
      } else if (this.#waitsForRun) {
        this.#waitsForRun = false;
        if (written) this.#resume();
        else this.#ctx.res.once('drain', this.#onDrain);
      }
    });
  }

  /**
   * Lets go of a primed stream nobody will run: the upstream call stops now (a primed one is
   * paused, and would hold its connection until the provider gave up), and what the stream added
   * to the request's copy is not the call's. Nothing once it runs.
   */
  cancel(): void {
    if (this.#held === null || this.#cancelled) return;
    this.#cancelled = true;
    this.#done = true;
    this.#body?.cancel(new Error('the primed stream was not sent'));
    // An in-process source waiting for run() stops there.
    this.#wakePull?.();
    this.#ctx.streamCopy?.clear();
  }

  #read(): void {
    this.#reading = true;
    const source = this.#reply.source;
    if (source instanceof UpstreamBody) {
      this.#body = source;
      source.consume(this);
    } else void this.#pull(source);
  }

  async #pull(source: AsyncIterable<Buffer | string>): Promise<void> {
    const iterator = source[Symbol.asyncIterator]();
    const abort = this.#ctx.abort;
    try {
      let next = await iterator.next();
      // An in-process source does not see the cancellation: it is stopped here.
      while (next.done !== true && !this.#done && !abort.aborted) {
        const chunk = next.value;
        if (!this.data(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)) await this.#pullResumed();
        if (this.#done) break;
        next = await iterator.next();
      }
      if (next.done !== true) void iterator.return?.();
      if (this.#done) return;
      if (abort.aborted) this.#cut();
      else this.end();
    } catch (err) {
      this.error(err);
    }
  }

  /** Resolves when #resume() is called (a drain, or run()), or when the request is cancelled (neither comes then). */
  #pullResumed(): Promise<void> {
    return new Promise((resolve) => {
      const abort = this.#ctx.abort;
      const done = (): void => {
        this.#wakePull = null;
        abort.offAbort(done);
        resolve();
      };
      this.#wakePull = done;
      abort.onAbort(done);
    });
  }

  #resume(): void {
    if (this.#body !== null) this.#body.resume();
    else this.#wakePull?.();
  }

  data(chunk: Buffer): boolean {
    if (this.#done) return true;
    const written = this.#relay(chunk);
    const held = this.#held;
    if (held === null) {
      if (written) return true;
      this.#ctx.res.once('drain', this.#onDrain);
      return false;
    }
    if (this.#done || held.length === 0) return true;
    if (this.#priming !== null) {
      this.#settlePriming(null);
      return true;
    }
    this.#waitsForRun = true;
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
    this.#conclude(() => {
      // A stream with no event at all still gets its head.
      this.#start();
      this.#ctx.res.end();
    });
  }

  error(err: unknown): void {
    if (this.#done) return;
    if (this.#ctx.abort.aborted) {
      this.#cut();
      return;
    }
    const e = toGatewayError(upstreamError(this.#provider, err));
    // What the translator emitted before the failure is the client's: it goes first, and the error event is the last one.
    this.#write(this.#sink.take());
    if (this.#nothingYet()) this.#giveUp(e);
    else this.#conclude(() => sendError(this.#ctx, this.#secrets.redactError(e)));
  }

  /**
   * The request was cancelled mid-stream. By the gateway (the shutdown deadline: the reason is
   * the error to tell): the client gets it as the last event. By the client going away: the
   * log stage records 499. Either way the usage is what the provider reported until now.
   * Before any output, the priming fails with the reason instead: the pipeline answers it.
   */
  #cut(): void {
    const ctx = this.#ctx;
    const reason = ctx.abort.reason;
    if (this.#nothingYet()) {
      // The call ends here, as a stream cut later would: the usage reported so far is partial.
      ctx.partial = true;
      this.#giveUp(reason);
      return;
    }
    this.#conclude(() => {
      if (isGatewayError(reason)) sendError(ctx, this.#secrets.redactError(reason));
      else {
        ctx.status = 499;
        ctx.error = clientClosed('the stream ended');
      }
      ctx.partial = true;
    });
  }

  /** Priming, and no output for the client yet: a failure now is the attempt's, not the stream's. */
  #nothingYet(): boolean {
    return this.#held !== null && this.#held.length === 0;
  }

  /**
   * The attempt failed before its stream began: its upstream call stops, and what it copied is
   * not the call's. Usage the provider reported is kept, as invoke keeps what a handler billed.
   */
  #giveUp(err: unknown): void {
    this.#done = true;
    const usage = this.#sink.usageResult();
    if (usage !== null) this.#ctx.usage = usage;
    this.#body?.cancel(toGatewayError(err));
    this.#ctx.streamCopy?.clear();
    this.#settlePriming(err);
  }

  /** The stream ended: `finale` ends the response now, or after the held output once running. */
  #conclude(finale: () => void): void {
    this.#done = true;
    if (this.#held !== null) {
      this.#finale = finale;
      this.#settlePriming(null);
      return;
    }
    finale();
    this.#finish();
  }

  #settlePriming(err: unknown): void {
    const priming = this.#priming;
    if (priming === null) return;
    this.#priming = null;
    if (err === null) priming.resolve();
    else priming.reject(err);
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

  /** Writes framed text; false when the socket is full. */
  #write(text: string): boolean {
    // A Buffer, not the string: for a string, Node writes the chunked-encoding frame and the
    // text in two syscalls; for a Buffer, one writev.
    return text === '' || this.#writeBytes(Buffer.from(text, 'utf8'));
  }

  /** Writes (or, before run(), holds) bytes for the client; false when the socket is full. */
  #writeBytes(bytes: Buffer): boolean {
    const held = this.#held;
    if (held !== null) {
      held.push(bytes);
      return true;
    }
    this.#start();
    const res = this.#ctx.res;
    return res.destroyed || res.write(bytes);
  }

  #start(): void {
    if (!this.#ctx.res.headersSent) startEventStream(this.#ctx, this.#headers);
  }

  #finish(): void {
    const ctx = this.#ctx;
    ctx.responseBody = this.#raw !== null ? this.#raw.fold : this.#sink.result();
    ctx.usage = this.#sink.usageResult();
    // Recorded for the log (the provider's health, the cache), though the client got it as sent.
    const failure = ctx.error === null ? this.#sink.failure(this.#provider) : null;
    if (failure !== null) ctx.error = this.#secrets.redactError(failure);
    this.#resolve?.();
  }
}
