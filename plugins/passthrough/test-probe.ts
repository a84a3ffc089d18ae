// Test-only plugin: keeps what the log stage sees of each call (status, model, target, labels,
// usage, kept bodies, error, the passthrough record) and serves it at GET /test/passthrough-probe
// (admin), so integration tests check what the audit log and pricing would read.
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { sendJson } from '../../core/respond.js';
import type { Usage } from '../../core/types/usage.js';
import type { PassthroughLocals } from './locals.js';

export interface ProbedPassthrough {
  path: string;
  status: number;
  model: string | null;
  /** The target with the pricing of its metadata (what the price stage reads). */
  target: { id: string; model: string; provider: string; pricing: unknown } | null;
  labels: Record<string, string | string[]>;
  usage: Usage | null;
  stream: boolean;
  /** The kept request bytes as text, and their length. */
  rawBody: string | null;
  rawBodyBytes: number | null;
  /** A parsed JSON answer as is; kept bytes as text. */
  responseBody: unknown;
  errorCode: string | null;
  errorStatus: number | null;
  attempts: Array<{ provider: string; model: string; status: number; error: string | null }>;
  passthrough: (Omit<PassthroughLocals, 'url'> & { url: string }) | null;
}

function probe(ctx: RequestContext): ProbedPassthrough {
  const target = ctx.target;
  const locals = ctx.locals.passthrough;
  const body = ctx.responseBody;
  return {
    path: ctx.path,
    status: ctx.status,
    model: ctx.model,
    target: target === null ? null : { id: target.id, model: target.model, provider: target.provider.name, pricing: target.metadata?.pricing ?? null },
    labels: ctx.labels,
    usage: ctx.usage,
    stream: ctx.stream,
    rawBody: ctx.rawBody === null ? null : ctx.rawBody.toString('utf8'),
    rawBodyBytes: ctx.rawBody === null ? null : ctx.rawBody.length,
    responseBody: Buffer.isBuffer(body) ? body.toString('utf8') : body,
    errorCode: ctx.error?.code ?? null,
    errorStatus: ctx.error?.status ?? null,
    attempts: ctx.attempts.map(({ provider, model, status, error }) => ({ provider, model, status, error })),
    passthrough: locals === undefined ? null : { url: locals.url.href, request: locals.request, response: locals.response },
  };
}

export default definePlugin({
  name: 'test-passthrough-probe',
  setup(gw) {
    const calls: ProbedPassthrough[] = [];
    gw.stages.log.tap('test-passthrough-probe', (ctx: RequestContext) => {
      if (ctx.route.operation !== null) calls.push(probe(ctx));
    });
    gw.addRoute({
      method: 'GET',
      path: '/test/passthrough-probe',
      access: 'admin',
      handler: async (ctx) => sendJson(ctx, 200, calls.splice(0)),
    });
  },
});
