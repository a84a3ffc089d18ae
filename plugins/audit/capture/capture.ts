// The log stage's part: what a request leaves for its audit entry. `capture` only takes
// references (a few dozen property reads: no copy, no serialisation on the request path);
// context objects and their buffers are not reused, so holding them until the writer turns
// them into an entry, once per event-loop turn, is safe.
import type { IncomingHttpHeaders } from 'node:http';
import type { Attempt, CostResult, Principal, RequestContext } from '../../../core/context.js';
import type { GatewayError } from '../../../core/errors.js';
import type { Target } from '../../../core/provider.js';
import type { Usage } from '../../../core/types/usage.js';

export interface CapturedEntry {
  id: string;
  ts: number;
  durationMs: number | null;
  firstByteMs: number | null;
  method: string;
  path: string;
  operation: string | null;
  model: string | null;
  target: Target | null;
  status: number;
  stream: boolean;
  principal: Principal | null;
  labels: Record<string, string | string[]>;
  clientIp: string | null;
  headers: IncomingHttpHeaders;
  rawBody: Buffer | null;
  responseBody: unknown;
  usage: Usage | null;
  cost: CostResult | null;
  attempts: Attempt[];
  cacheHit: boolean;
  error: GatewayError | null;
  traceId: string | null;
}

export interface CaptureOptions {
  /** Take the client address from `x-forwarded-for` (only behind a proxy the operator runs). */
  trustProxy: boolean;
}

export function capture(ctx: RequestContext, options: CaptureOptions): CapturedEntry {
  const req = ctx.req;
  return {
    id: ctx.id,
    ts: ctx.startedAt,
    durationMs: ctx.durationMs,
    firstByteMs: ctx.firstByteMs,
    method: req.method ?? '',
    path: ctx.path,
    operation: ctx.route.operation,
    model: ctx.model,
    target: ctx.target,
    status: ctx.status,
    stream: ctx.stream,
    principal: ctx.principal,
    labels: ctx.labels,
    // Read now: once the socket is gone node may no longer know the peer.
    clientIp: clientIp(req.headers, req.socket.remoteAddress, options.trustProxy),
    headers: req.headers,
    rawBody: ctx.rawBody,
    responseBody: ctx.responseBody,
    usage: ctx.usage,
    cost: ctx.cost,
    attempts: ctx.attempts,
    cacheHit: ctx.cacheHit,
    error: ctx.error,
    traceId: ctx.traceId,
  };
}

function clientIp(headers: IncomingHttpHeaders, socketAddress: string | undefined, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = headers['x-forwarded-for'];
    if (typeof forwarded === 'string' && forwarded !== '') {
      // The left-most address is the original client; the others are proxies on the way.
      const first = forwarded.split(',', 1)[0]!.trim();
      if (first !== '') return first;
    }
  }
  return socketAddress ?? null;
}
