// Relays one upstream SSE stream to the client: each upstream chunk is parsed once, handed to
// the provider's translator, framed by the operation's format and written as one write. A
// write the socket cannot take pauses the upstream until 'drain' (backpressure); a client that
// goes away cancels the upstream request through ctx.abort.
//
// An upstream body from core/http-client.ts is consumed in push mode (no promise per chunk);
// any other source (an in-process generator such as the demo provider's) is iterated.
import type { RequestContext } from '../context.js';
import { toGatewayError } from '../errors.js';
import { upstreamError } from '../http-client.js';
import type { StreamReply } from '../reply.js';
import { sendError, startEventStream } from '../respond.js';
import type { BodyConsumer } from '../upstream-body.js';
import { UpstreamBody } from '../upstream-body.js';
import type { FormatSink, StreamFormat } from './format.js';
import { SseParser } from './sse-parser.js';

export function relayStream(ctx: RequestContext, reply: StreamReply, format: StreamFormat): Promise<void> {
  const relay = new StreamRelay(ctx, reply, format.createSink(ctx));
  return reply.source instanceof UpstreamBody ? relay.push(reply.source) : relay.pull(reply.source);
}

class StreamRelay implements BodyConsumer {
  readonly #ctx: RequestContext;
  readonly #reply: StreamReply;
  readonly #sink: FormatSink;
  readonly #parser = new SseParser();
  #body: UpstreamBody | null = null;
  #done = false;
  #resolve: (() => void) | null = null;
  readonly #onDrain = (): void => {
    this.#body?.resume();
  };

  constructor(ctx: RequestContext, reply: StreamReply, sink: FormatSink) {
    this.#ctx = ctx;
    this.#reply = reply;
    this.#sink = sink;
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
        this.#parser.feed(chunk, this.#reply.translator, this.#sink);
        if (!this.#write(this.#sink.take())) await drained(this.#ctx);
      }
      if (!this.#ctx.abort.aborted) this.end();
    } catch (err) {
      this.error(err);
    }
    this.#finish();
  }

  data(chunk: Buffer): boolean {
    if (this.#done) return true;
    try {
      this.#parser.feed(chunk, this.#reply.translator, this.#sink);
    } catch (err) {
      this.error(err);
      return true;
    }
    const text = this.#sink.take();
    // Pass-through streams mostly write back exactly what came: the provider's own bytes then
    // go out as they are (as a JSON answer's do), without encoding the text again.
    if (text !== '' && text === this.#parser.whole ? this.#writeBytes(chunk) : this.#write(text)) return true;
    this.#ctx.res.once('drain', this.#onDrain);
    return false;
  }

  end(): void {
    if (this.#done) return;
    try {
      this.#parser.end(this.#reply.translator, this.#sink);
      this.#reply.translator.onEnd(this.#sink);
    } catch (err) {
      this.error(err);
      return;
    }
    this.#write(this.#sink.take() + this.#sink.trailer());
    this.#ctx.res.end();
    this.#finish();
  }

  error(err: unknown): void {
    if (this.#done) return;
    const ctx = this.#ctx;
    if (!ctx.abort.aborted) {
      // What the translator emitted before the failing event is the client's: it goes first,
      // and the error event is the last one.
      const pending = this.#sink.take();
      if (pending !== '') this.#write(pending);
      sendError(ctx, toGatewayError(upstreamError(ctx.target?.provider.name ?? 'unknown', err)));
    }
    this.#finish();
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
    this.#ctx.responseBody = this.#sink.result();
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
