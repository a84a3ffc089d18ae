// Runs requests through the stages. Model operations: auth, body, tag, route, limit, cache,
// forward, then the reply is written; price and log always run afterwards, whatever happened.
// Handler routes (admin, lists, health): auth, then the handler. Empty stages are skipped.
import type { RequestContext } from './context.js';
import { forbidden, modelNotFound, toGatewayError, unauthorized, unsupportedOperation } from './errors.js';
import type { Logger } from './logger.js';
import type { ProviderRegistry, Target } from './provider.js';
import type { JsonReply, Reply, StreamReply } from './reply.js';
import { sendError, sendJson } from './respond.js';
import type { Stages, UsedStages } from './stages.js';
import { parseJsonObject, readBody } from './body.js';
import { relayStream } from './stream/relay.js';

export class Pipeline {
  readonly #stages: Stages;
  readonly #used: UsedStages;
  readonly #bodyLimit: number;
  readonly #logger: Logger;
  readonly #providers: ProviderRegistry;

  constructor(stages: Stages, used: UsedStages, providers: ProviderRegistry, bodyLimit: number, logger: Logger) {
    this.#stages = stages;
    this.#providers = providers;
    this.#used = used;
    this.#bodyLimit = bodyLimit;
    this.#logger = logger;
  }

  /** A model operation, start to finish. Never rejects. */
  async runOperation(ctx: RequestContext): Promise<void> {
    const stages = this.#stages;
    const used = this.#used;
    try {
      await this.#authenticate(ctx);
      if (ctx.route.body === 'json') {
        ctx.rawBody = await readBody(ctx.req, this.#bodyLimit);
        const body = parseJsonObject(ctx.rawBody);
        ctx.body = body;
        if (typeof body['model'] === 'string') ctx.model = body['model'];
        ctx.stream = body['stream'] === true;
      }
      if (used.tag) stages.tag.call(ctx);
      if (used.route) await stages.route.promise(ctx);
      if (ctx.target === null) throw modelNotFound(ctx.model ?? '');
      if (used.limit) await stages.limit.promise(ctx);
      let reply: Reply | undefined;
      if (used.cache) reply = await stages.cache.promise(ctx);
      if (reply === undefined && used.forward) reply = await stages.forward.promise(ctx);
      if (reply === undefined) reply = await this.invoke(ctx, ctx.target);
      await this.#send(ctx, reply);
    } catch (err) {
      if (ctx.abort.aborted && !ctx.res.headersSent) ctx.status = 499;
      else sendError(ctx, toGatewayError(err));
      if (ctx.error?.status === 500) this.#logger.error(`request ${ctx.id} failed: ${describe(err)}`);
    } finally {
      await this.#finish(ctx);
    }
  }

  /** A handler route: auth, then the handler; errors become the envelope. Never rejects. */
  async runHandler(ctx: RequestContext): Promise<void> {
    try {
      await this.#authenticate(ctx);
      await ctx.route.handler!(ctx);
    } catch (err) {
      const e = toGatewayError(err);
      sendError(ctx, e);
      if (e.status === 500) this.#logger.error(`request ${ctx.id} failed: ${describe(err)}`);
    }
  }

  /** Calls the target's handler for this operation, recording the attempt. */
  async invoke(ctx: RequestContext, target: Target): Promise<JsonReply | StreamReply> {
    const operation = ctx.route.operation!;
    const handler = this.#providers.handler(target.provider, operation);
    if (handler === undefined) throw unsupportedOperation(operation, target.provider.name);
    const started = performance.now();
    try {
      const reply = await handler(ctx, target);
      const status = reply.kind === 'json' ? reply.status : 200;
      ctx.attempts.push({ provider: target.provider.name, model: target.model, status, error: null, duration_ms: performance.now() - started });
      return reply;
    } catch (err) {
      const e = toGatewayError(err);
      const status = ctx.abort.aborted ? 499 : e.status;
      ctx.attempts.push({ provider: target.provider.name, model: target.model, status, error: e.message, duration_ms: performance.now() - started });
      throw err;
    }
  }

  async #authenticate(ctx: RequestContext): Promise<void> {
    const access = ctx.route.access;
    if (access === 'public') return;
    if (this.#used.auth) await this.#stages.auth.promise(ctx);
    // Fail closed: without a principal (no auth plugin, or it let the request through
    // unidentified) nothing but public routes answers.
    if (ctx.principal === null) throw unauthorized();
    if (access === 'admin' && !ctx.principal.admin) throw forbidden('this route needs an admin credential', 'admin_required');
  }

  async #send(ctx: RequestContext, reply: Reply): Promise<void> {
    if (reply.kind === 'handled') return;
    const target = ctx.target;
    const res = ctx.res;
    if (target !== null) {
      res.setHeader('x-gateway-provider', target.provider.name);
      res.setHeader('x-gateway-model', target.model);
    }
    if (reply.headers) for (const name in reply.headers) res.setHeader(name, reply.headers[name]!);
    if (reply.kind === 'json') {
      // The raw bytes stand for a body nobody parsed: the audit log stores them as text.
      ctx.responseBody = reply.body !== undefined ? reply.body : reply.raw;
      ctx.usage = reply.usage;
      sendJson(ctx, reply.status, reply.body, reply.raw);
      return;
    }
    const format = ctx.route.streamFormat;
    if (format === null) throw new Error(`operation ${ctx.route.operation ?? '?'} cannot stream`);
    await relayStream(ctx, reply, format);
  }

  async #finish(ctx: RequestContext): Promise<void> {
    ctx.durationMs = ctx.elapsed();
    if (ctx.status === 0) ctx.status = ctx.res.statusCode;
    try {
      if (this.#used.price) this.#stages.price.call(ctx);
    } catch (err) {
      this.#logger.error(`price stage failed for ${ctx.id}: ${describe(err)}`);
    }
    try {
      if (this.#used.log) await this.#stages.log.promise(ctx);
    } catch (err) {
      this.#logger.error(`log stage failed for ${ctx.id}: ${describe(err)}`);
    }
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? ` (cause: ${err.cause.message})` : '';
    return `${err.name}: ${err.message}${cause}${err.stack ? '\n' + err.stack.split('\n').slice(1, 4).join('\n') : ''}`;
  }
  return String(err);
}
