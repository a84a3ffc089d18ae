// Relays one upstream SSE stream to the client: each upstream chunk is parsed once, handed to
// the provider's translator, framed by the operation's format and written as one write. A
// write the socket cannot take pauses reading upstream until 'drain' (backpressure); a client
// that goes away aborts the upstream request through ctx.abort.
import { once } from 'node:events';
import type { RequestContext } from '../context.js';
import { toGatewayError } from '../errors.js';
import { upstreamError } from '../http-client.js';
import type { StreamReply } from '../reply.js';
import { sendError, startEventStream } from '../respond.js';
import type { StreamFormat } from './format.js';
import { SseParser } from './sse-parser.js';

export async function relayStream(ctx: RequestContext, reply: StreamReply, format: StreamFormat): Promise<void> {
  const sink = format.createSink(ctx);
  const parser = new SseParser();
  const translator = reply.translator;
  try {
    for await (const chunk of reply.source) {
      // A source that does not take the signal (an in-process generator) is stopped here: the
      // client left, or shutdown cut the stream at its deadline.
      if (ctx.abort.signal.aborted) return;
      parser.feed(chunk as Buffer | string, translator, sink);
      const out = sink.take();
      if (out !== '') await write(ctx, reply, out);
    }
    parser.end(translator, sink);
    translator.onEnd(sink);
    await write(ctx, reply, sink.take() + sink.trailer());
    ctx.res.end();
  } catch (err) {
    if (ctx.abort.signal.aborted) return;
    const provider = ctx.target?.provider.name ?? 'unknown';
    // What the translator emitted before the failing event is the client's: send it first,
    // so the error event is the last one after everything that came before it.
    const pending = sink.take();
    if (pending !== '') {
      try {
        await write(ctx, reply, pending);
      } catch {
        return;
      }
    }
    sendError(ctx, toGatewayError(upstreamError(provider, err)));
  } finally {
    ctx.responseBody = sink.result();
    ctx.usage = sink.usageResult();
  }
}

async function write(ctx: RequestContext, reply: StreamReply, text: string): Promise<void> {
  const res = ctx.res;
  if (!res.headersSent) startEventStream(ctx, reply.headers);
  if (text !== '' && !res.write(text)) await once(res, 'drain', { signal: ctx.abort.signal });
}
