// Writing answers. Every response goes out through these few functions so that the envelope,
// the status table and the standard headers are the same on every route.
import type { RequestContext } from './context.js';
import type { GatewayError } from './errors.js';

export function sendJson(ctx: RequestContext, status: number, body: unknown, raw: Buffer | string | null = null): void {
  const res = ctx.res;
  const payload = raw ?? JSON.stringify(body);
  ctx.status = status;
  ctx.firstByteMs ??= ctx.elapsed();
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length);
  res.end(payload);
}

/** Start an SSE response (lazily, at the first bytes, so early errors can still be plain JSON). */
export function startEventStream(ctx: RequestContext, headers: Record<string, string> | null): void {
  const res = ctx.res;
  ctx.status = 200;
  ctx.firstByteMs = ctx.elapsed();
  res.statusCode = 200;
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache');
  // Proxies such as nginx buffer responses unless told not to, which would defeat streaming.
  res.setHeader('x-accel-buffering', 'no');
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  // No flushHeaders(): the caller writes the first events right away, and Node then sends the
  // head with them in one writev instead of a syscall of its own.
}

/**
 * The contract's error envelope. Before the headers went out it is a JSON answer with the
 * error's status; inside an event stream it is one last `data: {"error":...}` event.
 */
export function sendError(ctx: RequestContext, err: GatewayError): void {
  const res = ctx.res;
  ctx.error = err;
  if (res.writableEnded || res.destroyed) return;
  if (res.headersSent) {
    res.end(`data: ${JSON.stringify(err.toEnvelope())}\n\n`);
    return;
  }
  if (err.retryAfter !== null) res.setHeader('retry-after', String(Math.max(1, Math.ceil(err.retryAfter))));
  sendJson(ctx, err.status, err.toEnvelope());
  ctx.status = err.status;
}
