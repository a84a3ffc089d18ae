// The spans of one model request: a server span from arrival to the end of the response, and a
// client span per provider attempt under it. The sampler decides once, as the request arrives
// (the trace id must be known then: the audit entry and a provider may be told it); the spans
// are written when the request is over, from what its context recorded (finished-span.ts).
import { ROOT_CONTEXT, SamplingDecision, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import type { Attributes, SpanContext } from '@opentelemetry/api';
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { Attempt, RequestContext } from '../../core/context.js';
import { toGatewayError } from '../../core/errors.js';
import type { OperationHandler, Provider } from '../../core/provider.js';
import { randomHex } from '../../core/random-pool.js';
import type { Usage } from '../../core/types/usage.js';
import { FinishedSpan } from './finished-span.js';
import type { SpanFacts, SpanSource } from './finished-span.js';
import { answerFacts, genAiOperationName, genAiProviderName } from './genai.js';
import type { AnswerFacts } from './genai.js';
import { clientSpanContext, traceparentOf } from './trace-context.js';

/** An attempt made through a provider handler, as the handler's wrapper saw it. */
interface HandledAttempt {
  startMs: number;
  /** The GenAI name of the provider's type. */
  providerName: string;
  spanId: string;
  /** The handler failed with this error's code. */
  errorType: string | null;
}

interface TracingLocals {
  /** The server span's context: the trace the request belongs to. */
  context: SpanContext;
  /** The client's span, when it sent a valid `traceparent`. */
  parent: SpanContext | undefined;
  /** Whether the sampler wants the request's spans at all. */
  recording: boolean;
  handled: HandledAttempt[];
}

declare module '../../core/context.js' {
  interface ContextLocals {
    tracing?: TracingLocals;
  }
}

const TIME_ORIGIN = performance.timeOrigin;

/** `performance.now()` readings as the epoch milliseconds spans take. */
function epochMs(mono: number): number {
  return TIME_ORIGIN + mono;
}

/** The HTTP conventions: a server span is in error from a 5xx on (a 4xx was the client's doing). */
const SERVER_ERROR_FROM = 500;

export class RequestTracer {
  readonly #sampler: Sampler;
  readonly #processors: readonly SpanProcessor[];
  readonly #source: SpanSource;
  readonly #propagateTranslated: boolean;
  /** The requests in flight, by request id: a handler is given the request, not its context. */
  readonly #inFlight = new Map<string, TracingLocals>();

  constructor(sampler: Sampler, processors: readonly SpanProcessor[], source: SpanSource, propagateTranslated: boolean) {
    this.#sampler = sampler;
    this.#processors = processors;
    this.#source = source;
    this.#propagateTranslated = propagateTranslated;
  }

  /** The sampler's decision and the server span's ids, child of the client's trace when it sent a `traceparent`. */
  start(ctx: RequestContext): void {
    if (ctx.route.operation === null) return;
    const client = clientSpanContext(ctx.req.headers.traceparent);
    const traceId = client?.traceId ?? randomHex(16);
    const parentContext = client === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, client);
    const result = this.#sampler.shouldSample(parentContext, traceId, serverSpanName(ctx), SpanKind.SERVER, {}, []);
    const sampled = result.decision === SamplingDecision.RECORD_AND_SAMPLED;
    const context: SpanContext = { traceId, spanId: randomHex(8), traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE, traceState: result.traceState ?? client?.traceState };
    // Only a sampled trace exists anywhere: the audit keeps ids an operator can look up.
    if (sampled) ctx.traceId = traceId;
    const locals: TracingLocals = { context, parent: client, recording: result.decision !== SamplingDecision.NOT_RECORD, handled: [] };
    ctx.locals.tracing = locals;
    // The handler's wrapper has nothing to note for a request whose spans nobody wants, unless it tells providers of the trace.
    if (locals.recording || this.#propagateTranslated) this.#inFlight.set(ctx.id, locals);
    // A raw-body route's plugin sends the client's own request on (passthrough): the provider
    // hears of the trace as the client's call would have told it.
    if (ctx.route.body === 'raw') ctx.upstreamHeaders = { traceparent: traceparentOf(context) };
  }

  /** Wraps a provider handler (gw.providers.wrapHandlers): notes when each attempt began, and how it failed. */
  readonly wrap = (handler: OperationHandler, provider: Provider): OperationHandler => {
    const providerName = genAiProviderName(provider.type);
    return (request, target) => {
      const locals = this.#inFlight.get(request.id);
      if (locals === undefined) return handler(request, target);
      const attempt: HandledAttempt = { startMs: epochMs(performance.now()), providerName, spanId: randomHex(8), errorType: null };
      locals.handled.push(attempt);
      if (this.#propagateTranslated) request.meter.upstreamHeaders = { traceparent: traceparentOf({ ...locals.context, spanId: attempt.spanId }) };
      return handler(request, target).catch((err: unknown) => {
        const e = toGatewayError(err);
        attempt.errorType = e.code ?? e.type;
        throw err;
      });
    };
  };

  /** At the log stage: the request's spans, written whole and handed to the processors. */
  finish(ctx: RequestContext): void {
    const locals = ctx.locals.tracing;
    if (locals === undefined) return;
    this.#inFlight.delete(ctx.id);
    if (!locals.recording) return;
    const endMs = epochMs(ctx.startMono + (ctx.durationMs ?? ctx.elapsed()));
    const answer = ctx.attempts.length > 0 && ctx.error === null ? answerFacts(ctx.responseBody) : null;
    for (let i = 0; i < ctx.attempts.length; i++) this.#emit(this.#attemptSpan(ctx, locals, i, endMs, answer));
    this.#emit(this.#serverSpan(ctx, locals, endMs));
  }

  #emit(facts: SpanFacts): void {
    const span = new FinishedSpan(this.#source, facts);
    for (const processor of this.#processors) processor.onEnd(span);
  }

  #serverSpan(ctx: RequestContext, locals: TracingLocals, endMs: number): SpanFacts {
    const attributes: Attributes = {
      'http.request.method': ctx.req.method ?? 'GET',
      'http.route': ctx.route.path,
      'url.path': ctx.path,
      'gen_ai.operation.name': genAiOperationName(ctx.route.operation!),
      'sluice.request_id': ctx.id,
      'http.response.status_code': ctx.status,
    };
    if (ctx.model !== null) attributes['gen_ai.request.model'] = ctx.model;
    const target = ctx.target;
    if (target !== null) {
      attributes['gen_ai.provider.name'] = genAiProviderName(target.provider.type);
      attributes['sluice.provider'] = target.provider.name;
    }
    if (ctx.usage !== null) setUsage(attributes, ctx.usage);
    if (ctx.principal !== null) attributes['sluice.key_id'] = ctx.principal.id;
    const usd = ctx.cost?.total_usd;
    if (usd !== undefined && usd !== null) attributes['sluice.cost_usd'] = Number(usd);
    attributes['sluice.cache_hit'] = ctx.cacheHit;
    const error = ctx.error;
    if (error !== null) {
      attributes['error.type'] = error.code ?? error.type;
      attributes['http.response.status_code'] = error.status;
    }
    return {
      name: serverSpanName(ctx),
      kind: SpanKind.SERVER,
      context: locals.context,
      parent: locals.parent,
      startMs: epochMs(ctx.startMono),
      endMs,
      attributes,
      error: error !== null && error.status >= SERVER_ERROR_FROM ? error.message : undefined,
    };
  }

  /**
   * Attempt i. One made through a handler began when the handler was called; one a plugin made
   * itself (passthrough calls the provider without a handler) ended as the response did. The
   * answer's facts go on the last attempt, when it succeeded; a stream's lasts until its end.
   */
  #attemptSpan(ctx: RequestContext, locals: TracingLocals, i: number, requestEndMs: number, answer: AnswerFacts | null): SpanFacts {
    const attempt = ctx.attempts[i]!;
    const handled = locals.handled[i];
    const last = i === ctx.attempts.length - 1;
    const operation = genAiOperationName(ctx.route.operation!);
    const attributes: Attributes = { 'gen_ai.operation.name': operation };
    const providerName = handled?.providerName ?? (ctx.target !== null ? genAiProviderName(ctx.target.provider.type) : undefined);
    if (providerName !== undefined) attributes['gen_ai.provider.name'] = providerName;
    attributes['sluice.provider'] = attempt.provider;
    // A plugin's own call (passthrough) is to a path: the model is the one the body named.
    const model = handled !== undefined ? attempt.model : ctx.model === null ? null : ctx.model.slice(ctx.model.indexOf('/') + 1);
    if (model !== null) attributes['gen_ai.request.model'] = model;
    attributes['http.response.status_code'] = attempt.status;
    if (last && answer !== null && attempt.error === null) setAnswer(attributes, answer, ctx.usage);
    const errorType = handled?.errorType ?? null;
    if (errorType !== null) attributes['error.type'] = errorType;
    const startMs = handled?.startMs ?? requestEndMs - attempt.duration_ms;
    const streamed = last && ctx.stream && attempt.error === null;
    return {
      name: model === null ? operation : `${operation} ${model}`,
      kind: SpanKind.CLIENT,
      context: { ...locals.context, spanId: handled?.spanId ?? randomHex(8) },
      parent: locals.context,
      startMs,
      endMs: handled === undefined || streamed ? requestEndMs : Math.min(startMs + attempt.duration_ms, requestEndMs),
      attributes,
      // An attempt that failed is in error whatever its status: for the gateway as a client, a 4xx is a failure too.
      error: attempt.error ?? undefined,
    };
  }
}

function serverSpanName(ctx: RequestContext): string {
  return `${ctx.req.method ?? 'GET'} ${ctx.route.path}`;
}

function setAnswer(attributes: Attributes, answer: AnswerFacts, usage: Usage | null): void {
  if (answer.model !== null) attributes['gen_ai.response.model'] = answer.model;
  if (answer.finishReasons.length > 0) attributes['gen_ai.response.finish_reasons'] = answer.finishReasons;
  if (usage !== null) setUsage(attributes, usage);
}

function setUsage(attributes: Attributes, usage: Usage): void {
  attributes['gen_ai.usage.input_tokens'] = usage.input_tokens;
  attributes['gen_ai.usage.output_tokens'] = usage.output_tokens;
}
