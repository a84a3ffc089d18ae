// Writing answers. Every response goes out through these few functions so that the envelope,
// the status table and the standard headers are the same on every route.
//
// A JSON answer's head is written with one writeHead(status, [name, value, ...]) that carries
// x-request-id too: each setHeader validates, lower-cases and stores its header in an object
// that writeHead then walks again, and once one was called writeHead takes that slow path for
// every header it is given. The server sets x-request-id up front only where a plugin may write
// the response itself (handler and raw-body routes).
import type { RequestContext } from './context.js';
import type { GatewayError } from './errors.js';
import { endAfterRequestBody } from './early-answer.js';
import { headerSafe } from './header-text.js';
import { jsonText } from './json-text.js';
import type { JsonReply } from './reply.js';

type Head = Array<string | number>;

export function sendJson(ctx: RequestContext, status: number, body: unknown, raw: Buffer | string | null = null): void {
  endJson(ctx, status, raw ?? jsonText(body), ['x-request-id', ctx.id]);
}

/** A model operation's JSON answer, with the target that gave it in its headers. */
export function sendJsonReply(ctx: RequestContext, reply: JsonReply): void {
  const payload = reply.raw ?? jsonText(reply.body);
  const target = ctx.target;
  if (target !== null && reply.headers === null) {
    endJson(ctx, reply.status, payload, ['x-request-id', ctx.id, 'x-gateway-provider', headerSafe(target.provider.name), 'x-gateway-model', headerSafe(target.model)]);
    return;
  }
  ctx.res.setHeader('x-request-id', ctx.id);
  setReplyHeaders(ctx, reply.headers);
  endJson(ctx, reply.status, payload, []);
}

/**
 * The target's headers and a reply's extra ones, by setHeader (a stream's head goes out with its
 * first events). Extra headers may name one the core sets: setHeader keeps the last value of a
 * name, as the order below always decided.
 */
export function setReplyHeaders(ctx: RequestContext, headers: Record<string, string> | null): void {
  const res = ctx.res;
  const target = ctx.target;
  if (target !== null) {
    res.setHeader('x-gateway-provider', headerSafe(target.provider.name));
    res.setHeader('x-gateway-model', headerSafe(target.model));
  }
  if (headers !== null) for (const name in headers) res.setHeader(name, headers[name]!);
}

function endJson(ctx: RequestContext, status: number, payload: Buffer | string, head: Head): void {
  ctx.status = status;
  ctx.firstByteMs ??= ctx.elapsed();
  head.push('content-type', 'application/json', 'content-length', typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length);
  ctx.res.writeHead(status, head);
  // An answer given before the request's body has all arrived (401, 413, 503): see early-answer.ts.
  if (ctx.req.complete || bodyReadWhole(ctx)) ctx.res.end(payload);
  else endAfterRequestBody(ctx.req, ctx.res, payload);
}

/**
 * The core read a JSON route's body whole: nothing is left to arrive, though node may not have
 * marked the request complete yet when the answer is quick (a cache hit). A raw-body route's
 * rawBody is what a plugin captured of a body still streaming (passthrough): not whole.
 */
function bodyReadWhole(ctx: RequestContext): boolean {
  return ctx.route.body === 'json' && ctx.rawBody !== null;
}

/** Start an SSE response (lazily, at the first bytes, so early errors can still be plain JSON). */
export function startEventStream(ctx: RequestContext, headers: Record<string, string> | null): void {
  const res = ctx.res;
  ctx.status = 200;
  ctx.firstByteMs = ctx.elapsed();
  res.statusCode = 200;
  res.setHeader('x-request-id', ctx.id);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache');
  // Proxies such as nginx buffer responses unless told not to, which would defeat streaming.
  res.setHeader('x-accel-buffering', 'no');
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  // No flushHeaders(): the caller writes the first events right away, and Node then sends the
  // head with them in one writev instead of a syscall of its own.
}

/** A whole event stream known before it is sent (a recorded one): its head and events in one write. */
export function sendEvents(ctx: RequestContext, events: Buffer, headers: Record<string, string> | null): void {
  startEventStream(ctx, headers);
  ctx.res.end(events);
}

/**
 * The contract's error envelope. Before the headers went out it is a JSON answer with the
 * error's status (and `extra` header pairs); inside an event stream it is one last
 * `data: {"error":...}` event.
 */
export function sendError(ctx: RequestContext, err: GatewayError, extra: Head = []): void {
  const res = ctx.res;
  ctx.error = err;
  if (res.writableEnded || res.destroyed) return;
  if (res.headersSent) {
    res.end(`data: ${JSON.stringify(err.toEnvelope())}\n\n`);
    return;
  }
  const head: Head = ['x-request-id', ctx.id, ...extra];
  if (err.retryAfter !== null) head.push('retry-after', String(Math.max(1, Math.ceil(err.retryAfter))));
  endJson(ctx, err.status, JSON.stringify(err.toEnvelope()), head);
  ctx.status = err.status;
}
