// The body of an upstream response as it arrives from undici's dispatch handler: buffered for
// JSON answers, or consumed chunk by chunk for streams with flow control (the upstream socket
// is paused while the consumer cannot keep up). No Readable stream in between: this is the
// hot path of every call.
//
// undici hands a socket read over one chunked-encoding frame at a time, synchronously, and
// providers commonly write one SSE event per frame: a consumer gets the frames of one read
// joined, once the read is parsed (a microtask later, before any other I/O), and what arrived
// before the consumer attached, joined too. A burst of events is then scanned, translated and
// written to the client once instead of once per event; a stream whose events arrive apart is
// delivered as before, read by read.
//
// A buffered answer (`bytes()`) is never paused: it is read to its end, up to the configured
// maximum (`upstream.max_buffered_answer_bytes`), past which the call fails with 502 and the
// upstream connection is closed. Only a body nobody reads yet is paused, and whoever reads it
// (`bytes()`, `consume()`) resumes it.
import type { Dispatcher } from 'undici';
import { providerFailed } from './errors.js';

export interface BodyConsumer {
  /** One chunk; return false to pause the upstream until `resume()` is called. */
  data(chunk: Buffer): boolean;
  end(): void;
  error(err: unknown): void;
}

/** Pause the socket once this much is buffered and no reader has come yet. */
const HIGH_WATER = 256 * 1024;

export class UpstreamBody implements AsyncIterable<Buffer> {
  readonly provider: string;
  readonly #maxBuffered: number;
  #chunks: Buffer[] = [];
  #size = 0;
  /** What #size may reach before #overLimit(): HIGH_WATER until `bytes()` asks for the whole body. */
  #limit = HIGH_WATER;
  #buffering = false;
  #done = false;
  #error: unknown = null;
  #wake: (() => void) | null = null;
  #consumer: BodyConsumer | null = null;
  #controller: Dispatcher.DispatchController | null = null;
  /** Push mode: the frames of the read being parsed, not yet delivered (a delivery is queued once the first arrives). */
  #held: Buffer[] = [];
  readonly #deliverHeld = (): void => {
    this.#deliver();
  };

  /** `maxBuffered`: the largest body `bytes()` reads (the config's `upstream.max_buffered_answer_bytes`). */
  constructor(provider: string, maxBuffered = Number.POSITIVE_INFINITY) {
    this.provider = provider;
    this.#maxBuffered = maxBuffered;
  }

  /** @internal undici's side. */
  attach(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
  }

  /** @internal */
  push(chunk: Buffer): void {
    if (this.#consumer !== null) {
      if (this.#held.push(chunk) === 1) queueMicrotask(this.#deliverHeld);
      return;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    if (this.#size > this.#limit) this.#overLimit();
    this.#signal();
  }

  #overLimit(): void {
    if (this.#done) return;
    if (!this.#buffering) {
      this.#controller?.pause();
      return;
    }
    // Failing the body first: the abort below reports its own error, which then finds it done.
    const err = providerFailed(this.provider, `provider '${this.provider}' answered with more than ${this.#maxBuffered} bytes (upstream.max_buffered_answer_bytes)`, undefined, 502, 'answer_too_large');
    this.#chunks = [];
    this.#size = 0;
    this.fail(err);
    // Closes the upstream connection: the rest of the answer is never read.
    this.#controller?.abort(err);
  }

  /** @internal */
  finish(): void {
    this.#done = true;
    if (this.#consumer !== null) {
      this.#deliver();
      this.#consumer.end();
    } else this.#signal();
  }

  /** @internal */
  fail(err: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#error = err;
    if (this.#consumer !== null) {
      // What arrived before the failure is the client's, ahead of the error.
      this.#deliver();
      this.#consumer.error(err);
    } else this.#signal();
  }

  /** Hands the held frames over; false when the consumer asked for a pause. */
  #deliver(): boolean {
    const held = this.#held;
    if (held.length === 0) return true;
    this.#held = [];
    if (this.#consumer!.data(held.length === 1 ? held[0]! : Buffer.concat(held))) return true;
    this.#controller?.pause();
    return false;
  }

  /**
   * Stops the call: its connection is closed and the rest of the answer is never read (a stream
   * given up before the client got any of it). The consumer hears nothing more.
   */
  cancel(reason: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#error = reason;
    this.#held = [];
    this.#chunks = [];
    this.#size = 0;
    this.#controller?.abort(reason);
  }

  /** Resume a paused upstream (after the consumer drained). */
  resume(): void {
    this.#controller?.resume();
  }

  /** Push mode: chunks go straight to `consumer`, without a promise per chunk. */
  consume(consumer: BodyConsumer): void {
    this.#consumer = consumer;
    // What arrived before the consumer did (often a whole short stream) goes over as one.
    this.#held = this.#chunks;
    this.#chunks = [];
    this.#size = 0;
    const waiting = this.#controller?.paused === true;
    const accepted = this.#deliver();
    if (this.#error !== null) consumer.error(this.#error);
    else if (this.#done) consumer.end();
    // Paused while nobody read it: the consumer reads now, unless it asked for a pause itself.
    else if (waiting && accepted) this.resume();
  }

  /** The whole body, up to the maximum for a buffered answer (502 `answer_too_large` above it). */
  async bytes(): Promise<Buffer> {
    this.#buffering = true;
    this.#limit = this.#maxBuffered;
    if (this.#size > this.#limit) this.#overLimit();
    else if (this.#controller?.paused === true) this.#controller.resume();
    while (!this.#done) await this.#next();
    if (this.#error !== null) throw this.#error;
    const chunks = this.#chunks;
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size);
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  /** The body parsed as a JSON object; anything else is the provider's failure (502). */
  async json<T extends object>(): Promise<T> {
    return parseProviderJson<T>(this.provider, await this.bytes());
  }

  /** Discard the rest without keeping it (an error body we do not need). */
  dump(): void {
    this.consume({ data: () => true, end: () => {}, error: () => {} });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    for (;;) {
      if (this.#chunks.length > 0) {
        const chunk = this.#chunks.shift()!;
        this.#size -= chunk.length;
        if (this.#controller?.paused && this.#size < HIGH_WATER / 2) this.#controller.resume();
        yield chunk;
        continue;
      }
      if (this.#error !== null) throw this.#error;
      if (this.#done) return;
      await this.#next();
    }
  }

  #next(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #signal(): void {
    const wake = this.#wake;
    if (wake !== null) {
      this.#wake = null;
      wake();
    }
  }
}

export function parseProviderJson<T extends object>(provider: string, bytes: Buffer): T {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw providerFailed(provider, `provider '${provider}' answered with a body that is not JSON`, err);
  }
  if (typeof value !== 'object' || value === null) throw providerFailed(provider, `provider '${provider}' answered with JSON that is not an object`);
  return value as T;
}
