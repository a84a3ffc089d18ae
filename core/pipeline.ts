// Runs requests through the stages. Model operations: auth, body, tag, route, limit, cache,
// forward, then the reply is written; price and log always run afterwards, whatever happened.
// Handler routes (admin, lists, health): auth, then the handler. Empty stages are skipped.
//
// Each step that may finish synchronously returns undefined when it did, and a promise only
// when it has to wait: an `await` costs a microtask even on a value that is already there.
import type { RequestContext } from './context.js';
import { badRequest, clientClosed, forbidden, isGatewayError, modelNotFound, toGatewayError, unauthorized, unsupportedOperation } from './errors.js';
import type { GatewayError } from './errors.js';
import type { Logger } from './logger.js';
import type { CallMeter, OperationHandler, OperationRequest, ProviderRegistry, Target } from './provider.js';
import type { JsonReply, Reply, StreamReply } from './reply.js';
import { sendError, sendEvents, sendJsonReply, setReplyHeaders } from './respond.js';
import type { SecretText } from './secret-text.js';
import type { StageRunners, Stages } from './stages.js';
import { parseJsonObject, readBody, requestedModel } from './body.js';
import { openRelay, relayStream } from './stream/relay.js';

/** Told when a request's work is over (after the log stage): the server's in-flight count. */
export type Settled = (ctx: RequestContext) => void;

export class Pipeline {
  readonly #stages: Stages;
  readonly #run: StageRunners;
  readonly #bodyLimit: number;
  readonly #logger: Logger;
  readonly #secrets: SecretText;
  readonly #providers: ProviderRegistry;

  constructor(stages: Stages, run: StageRunners, providers: ProviderRegistry, bodyLimit: number, logger: Logger, secrets: SecretText) {
    this.#secrets = secrets;
    this.#stages = stages;
    this.#providers = providers;
    this.#run = run;
    this.#bodyLimit = bodyLimit;
    this.#logger = logger;
  }

  /** A model operation, start to finish; `settled` is called at the very end. Never rejects. */
  async runOperation(ctx: RequestContext, settled: Settled): Promise<void> {
    const run = this.#run;
    try {
      if (ctx.route.access !== 'public') {
        const authenticated = run.auth?.(ctx);
        if (authenticated !== undefined) await authenticated;
        authorize(ctx);
      }
      if (ctx.route.body === 'json') {
        const raw = readBody(ctx.req, this.#bodyLimit);
        ctx.rawBody = raw instanceof Promise ? await raw : raw;
        const body = parseJsonObject(ctx.rawBody);
        ctx.body = body;
        ctx.model = requestedModel(body);
        ctx.stream = body['stream'] === true;
      }
      if (run.tag) this.#stages.tag.call(ctx);
      if (run.route !== null) {
        const routed = run.route(ctx);
        if (routed !== undefined) await routed;
      }
      if (ctx.target === null) throw modelNotFound(ctx.model ?? '');
      if (run.limit !== null) {
        const admitted = run.limit(ctx);
        if (admitted !== undefined) await admitted;
      }
      let reply: Reply | undefined;
      if (run.cache !== null) {
        const cached = run.cache(ctx);
        reply = cached instanceof Promise ? await cached : cached;
      }
      if (reply === undefined && run.forward !== null) {
        const forwarded = run.forward(ctx);
        reply = forwarded instanceof Promise ? await forwarded : forwarded;
      }
      if (reply === undefined) reply = await this.invoke(ctx, ctx.target);
      dropUnsent(ctx, reply);
      const sent = this.#send(ctx, reply);
      if (sent !== undefined) await sent;
    } catch (err) {
      dropUnsent(ctx, null);
      // A client that went away gets nothing; one the gateway cut (shutdown) gets the reason.
      if (ctx.abort.aborted && !ctx.res.headersSent && !isGatewayError(ctx.abort.reason)) {
        ctx.status = 499;
        ctx.error = clientClosed('it was answered');
      } else sendError(ctx, this.#secrets.redactError(toGatewayError(err)));
      if (ctx.error?.status === 500) this.#logger.error(`request ${ctx.id} failed: ${describe(err)}`, { request_id: ctx.id });
    } finally {
      const logged = this.#finish(ctx);
      if (logged !== undefined) await logged;
      settled(ctx);
    }
  }

  /** A handler route: auth, then the handler; errors become the envelope; `settled` at the end. Never rejects. */
  async runHandler(ctx: RequestContext, settled: Settled): Promise<void> {
    try {
      if (ctx.route.access !== 'public') {
        const authenticated = this.#run.auth?.(ctx);
        if (authenticated !== undefined) await authenticated;
        authorize(ctx);
      }
      await ctx.route.handler!(ctx);
    } catch (err) {
      const e = toGatewayError(err);
      sendError(ctx, e);
      if (e.status === 500) this.#logger.error(`request ${ctx.id} failed: ${describe(err)}`, { request_id: ctx.id });
    } finally {
      settled(ctx);
    }
  }

  /**
   * Calls the target's handler for the request's operation and records the attempt: the
   * pipeline's own call when no cache or forward tap answered, and a plugin's (failover) per
   * target. Each call hands the handler the client's request as read, so a second target gets
   * the same request. The target that answered becomes ctx.target, which price and log read.
   * A stream settles once its first output for the client exists (primed, nothing written yet):
   * a failure before that is this attempt's, and another target may still answer. A stream the
   * previous call primed and no reply sent is cancelled: a caller that invokes again let it go.
   */
  async invoke(ctx: RequestContext, target: Target): Promise<JsonReply | StreamReply> {
    dropUnsent(ctx, null);
    const handler = this.#handler(ctx, target);
    const meter: CallMeter = { queuedMs: 0, upstreamHeaders: ctx.upstreamHeaders, billed: null };
    const request = operationRequest(ctx, meter);
    const started = performance.now();
    let reply: JsonReply | StreamReply;
    try {
      reply = await handler(request, target);
      if (reply.kind === 'stream') await this.#prime(ctx, reply, target);
    } catch (err) {
      if (meter.billed !== null) ctx.usage = meter.billed;
      failedAttempt(ctx, target, started, meter.queuedMs, this.#secrets.redactError(toGatewayError(err)));
      throw err;
    }
    succeededAttempt(ctx, target, started, meter.queuedMs, reply);
    ctx.target = target;
    if (reply.kind === 'stream' && reply.primed !== undefined) ctx.primed = reply.primed;
    return reply;
  }

  /** Reads the stream up to its first output; a route that cannot stream is #send's to refuse. */
  #prime(ctx: RequestContext, reply: StreamReply, target: Target): Promise<void> | undefined {
    const format = ctx.route.streamFormat;
    if (format === null) return undefined;
    const relay = openRelay(ctx, reply, format, this.#secrets, target.provider.name);
    reply.primed = relay;
    return relay.prime();
  }

  #handler(ctx: RequestContext, target: Target): OperationHandler {
    const operation = ctx.route.operation!;
    const handler = this.#providers.handler(target.provider, operation);
    if (handler === undefined) throw unsupportedOperation(operation, target.provider.name);
    return handler;
  }

  #send(ctx: RequestContext, reply: Reply): Promise<void> | undefined {
    if (reply.kind === 'handled') return undefined;
    if (reply.kind === 'json') {
      // The raw bytes stand for a body nobody parsed: a log tap reads them as text.
      ctx.responseBody = reply.body !== undefined ? reply.body : reply.raw;
      ctx.usage = reply.usage;
      throwIfClientLeft(ctx);
      sendJsonReply(ctx, reply);
      return undefined;
    }
    if (reply.kind === 'recorded') {
      ctx.responseBody = reply.body;
      ctx.usage = reply.usage;
      throwIfClientLeft(ctx);
      setReplyHeaders(ctx, reply.headers);
      sendEvents(ctx, reply.events, reply.headers);
      return undefined;
    }
    setReplyHeaders(ctx, reply.headers);
    if (reply.primed !== undefined) return reply.primed.run(reply.headers);
    const format = ctx.route.streamFormat;
    if (format === null) throw new Error(`operation ${ctx.route.operation ?? '?'} cannot stream`);
    return relayStream(ctx, reply, format, this.#secrets);
  }

  /** Price, then log; a promise only when a log tap is async. Never throws or rejects. */
  #finish(ctx: RequestContext): Promise<void> | undefined {
    ctx.durationMs = ctx.elapsed();
    if (ctx.status === 0) ctx.status = ctx.res.statusCode;
    try {
      if (this.#run.price) this.#stages.price.call(ctx);
    } catch (err) {
      this.#logger.error(`price stage failed for ${ctx.id}: ${describe(err)}`, { request_id: ctx.id });
    }
    const log = this.#run.log;
    if (log === null) return undefined;
    try {
      const pending = log(ctx);
      return pending === undefined ? undefined : pending.catch((err: unknown) => this.#logFailed(err, ctx));
    } catch (err) {
      this.#logFailed(err, ctx);
      return undefined;
    }
  }

  #logFailed(err: unknown, ctx: RequestContext): void {
    this.#logger.error(`log stage failed for ${ctx.id}: ${describe(err)}`, { request_id: ctx.id });
  }
}

/**
 * Cancels the stream invoke primed last unless `reply` sends it. A primed stream holds its
 * upstream call open, paused, until it runs: one that never runs would hold it until the
 * provider gave up, long after the request ended.
 */
function dropUnsent(ctx: RequestContext, reply: Reply | null): void {
  const primed = ctx.primed;
  if (primed === null || (reply?.kind === 'stream' && reply.primed === primed)) return;
  ctx.primed = null;
  primed.cancel();
}

/** The request a handler is given: the client's, as the pipeline read it. */
function operationRequest(ctx: RequestContext, meter: CallMeter): OperationRequest {
  if (ctx.body === null) throw badRequest('a JSON request body is required');
  return { operation: ctx.route.operation!, body: ctx.body, raw: ctx.rawBody, stream: ctx.stream, model: ctx.model, signal: ctx.abort, id: ctx.id, meter };
}

function succeededAttempt(ctx: RequestContext, target: Target, started: number, queuedMs: number, reply: JsonReply | StreamReply): void {
  const status = reply.kind === 'json' ? reply.status : 200;
  recordAttempt(ctx, target, started, queuedMs, status, null);
}

function failedAttempt(ctx: RequestContext, target: Target, started: number, queuedMs: number, e: GatewayError): void {
  recordAttempt(ctx, target, started, queuedMs, ctx.abort.aborted ? 499 : e.status, e.message);
}

function recordAttempt(ctx: RequestContext, target: Target, started: number, queuedMs: number, status: number, error: string | null): void {
  const duration_ms = performance.now() - started;
  ctx.queuedMs += queuedMs;
  ctx.attempts.push({ provider: target.provider.name, model: target.model, status, error, duration_ms, queued_ms: queuedMs });
}

/**
 * An answer made whole while its client went away (a cache's lookup, a provider that answered as
 * the client left) is sent to no one: the call is a 499, as a relayed stream's would be, and keeps
 * the usage it was metered with. The gateway's own cut (the shutdown deadline) still sends it.
 */
function throwIfClientLeft(ctx: RequestContext): void {
  if (ctx.abort.aborted && !isGatewayError(ctx.abort.reason)) throw ctx.abort.reason;
}

/** After the auth stage, on every route but public ones. */
function authorize(ctx: RequestContext): void {
  // Fail closed: without a principal (no auth plugin, or it let the request through
  // unidentified) nothing but public routes answers.
  if (ctx.principal === null) throw unauthorized();
  if (ctx.route.access === 'admin' && !ctx.principal.admin) throw forbidden('this route needs an admin credential', 'admin_required');
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? ` (cause: ${err.cause.message})` : '';
    return `${err.name}: ${err.message}${cause}${err.stack ? '\n' + err.stack.split('\n').slice(1, 4).join('\n') : ''}`;
  }
  return String(err);
}
