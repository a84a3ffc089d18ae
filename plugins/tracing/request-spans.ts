// The spans of one model request: a server span from arrival to the end of the response, and a
// client span per provider attempt under it. Spans are started and ended with the request's
// own clock readings, so each is one startSpan and one end; a span not sampled does no more.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import type { Attempt, RequestContext } from '../../core/context.js';
import { toGatewayError } from '../../core/errors.js';
import type { GatewayError } from '../../core/errors.js';
import type { OperationHandler, Provider } from '../../core/provider.js';
import type { JsonReply, StreamReply } from '../../core/reply.js';
import type { Usage } from '../../core/types/usage.js';
import { answerFacts, genAiOperationName, genAiProviderName } from './genai.js';
import type { AnswerFacts } from './genai.js';
import { clientContext, traceparentOf } from './trace-context.js';

interface TracingLocals {
  span: Span;
  /** Attempts made through a provider handler: their spans were made around the call. */
  handled: number;
  /** The last attempt's span while its stream runs: it ends with the response. */
  streaming: Span | null;
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

function now(): number {
  return epochMs(performance.now());
}

export class RequestTracer {
  // Set at the ready hook, once every plugin had its say on where spans go; no request comes earlier.
  #tracer: Tracer = trace.getTracer('unused');
  readonly #propagateTranslated: boolean;
  /** The traced requests in flight, by request id: a handler is given the request, not its context. */
  readonly #inFlight = new Map<string, TracingLocals>();

  constructor(propagateTranslated: boolean) {
    this.#propagateTranslated = propagateTranslated;
  }

  use(tracer: Tracer): void {
    this.#tracer = tracer;
  }

  /** The server span, child of the client's trace when it sent a `traceparent`. */
  start(ctx: RequestContext): void {
    const operation = ctx.route.operation;
    if (operation === null) return;
    const method = ctx.req.method ?? 'GET';
    const span = this.#tracer.startSpan(`${method} ${ctx.route.path}`, { kind: SpanKind.SERVER, startTime: epochMs(ctx.startMono) }, clientContext(ctx.req.headers.traceparent));
    // One by one, after the start: attributes given to startSpan are copied twice over for the
    // sampler, and the standard samplers read none.
    if (span.isRecording()) {
      span.setAttribute('http.request.method', method);
      span.setAttribute('http.route', ctx.route.path);
      span.setAttribute('url.path', ctx.path);
      span.setAttribute('gen_ai.operation.name', genAiOperationName(operation));
      span.setAttribute('sluice.request_id', ctx.id);
    }
    const context = span.spanContext();
    // Only a sampled trace exists anywhere: the audit keeps ids an operator can look up.
    if ((context.traceFlags & TraceFlags.SAMPLED) !== 0) ctx.traceId = context.traceId;
    const locals: TracingLocals = { span, handled: 0, streaming: null };
    ctx.locals.tracing = locals;
    this.#inFlight.set(ctx.id, locals);
    // A raw-body route's plugin sends the client's own request on (passthrough): the provider
    // hears of the trace as the client's call would have told it.
    if (ctx.route.body === 'raw') ctx.upstreamHeaders = { traceparent: traceparentOf(context) };
  }

  /** Wraps a provider handler (gw.providers.wrapHandlers): a client span around each attempt. */
  readonly wrap = (handler: OperationHandler, provider: Provider, operation: string): OperationHandler => {
    const operationName = genAiOperationName(operation);
    const providerName = genAiProviderName(provider.type);
    const prefix = `${operationName} `;
    return (request, target) => {
      const locals = this.#inFlight.get(request.id);
      if (locals === undefined) return handler(request, target);
      locals.handled++;
      // On the request's clock, as the server span: the SDK's own reads whole milliseconds, and an
      // attempt would seem to start before the request it belongs to.
      const span = this.#tracer.startSpan(prefix + target.model, { kind: SpanKind.CLIENT, startTime: now() }, trace.setSpan(ROOT_CONTEXT, locals.span));
      if (this.#propagateTranslated) request.meter.upstreamHeaders = { traceparent: traceparentOf(span.spanContext()) };
      if (span.isRecording()) {
        span.setAttribute('gen_ai.operation.name', operationName);
        span.setAttribute('gen_ai.provider.name', providerName);
        span.setAttribute('sluice.provider', provider.name);
        span.setAttribute('gen_ai.request.model', target.model);
      }
      return handler(request, target).then(
        (reply) => {
          if (reply.kind === 'stream') locals.streaming = span;
          else answered(span, reply);
          return reply;
        },
        (err: unknown) => {
          failed(span, toGatewayError(err), CLIENT_ERROR_FROM);
          span.end(now());
          throw err;
        },
      );
    };
  };

  /** At the log stage: the attempts' last spans and the server span end with the response. */
  finish(ctx: RequestContext): void {
    const locals = ctx.locals.tracing;
    if (locals === undefined) return;
    this.#inFlight.delete(ctx.id);
    const endMono = ctx.startMono + (ctx.durationMs ?? ctx.elapsed());
    const end = epochMs(endMono);
    const span = locals.span;
    const recording = span.isRecording();
    const streaming = locals.streaming;
    const recorded = locals.handled < ctx.attempts.length;
    // What the answer says of itself goes on the attempt that got it; an attempt made around a
    // handler with a JSON answer has it already.
    const facts = recording && (streaming !== null || recorded) ? answerFacts(ctx.responseBody) : null;
    if (streaming !== null) {
      if (streaming.isRecording()) setAnswer(streaming, facts?.model ?? null, facts?.finishReasons ?? [], ctx.usage);
      streaming.end(end);
    }
    // Attempts a plugin made itself (passthrough calls the provider without a handler): their
    // span is drawn from the attempt's record, ending as the response did.
    for (let i = locals.handled; i < ctx.attempts.length; i++) this.#recordedAttempt(ctx, ctx.attempts[i]!, locals.span, endMono, facts);
    if (!recording) {
      span.end(end);
      return;
    }
    const target = ctx.target;
    span.setAttribute('http.response.status_code', ctx.status);
    if (ctx.model !== null) span.setAttribute('gen_ai.request.model', ctx.model);
    if (target !== null) {
      span.setAttribute('gen_ai.provider.name', genAiProviderName(target.provider.type));
      span.setAttribute('sluice.provider', target.provider.name);
    }
    if (ctx.usage !== null) setUsage(span, ctx.usage);
    if (ctx.principal !== null) span.setAttribute('sluice.key_id', ctx.principal.id);
    const usd = ctx.cost?.total_usd;
    if (usd !== undefined && usd !== null) span.setAttribute('sluice.cost_usd', Number(usd));
    span.setAttribute('sluice.cache_hit', ctx.cacheHit);
    if (ctx.error !== null) failed(span, ctx.error, SERVER_ERROR_FROM);
    span.end(end);
  }

  #recordedAttempt(ctx: RequestContext, attempt: Attempt, parent: Span, endMono: number, facts: AnswerFacts | null): void {
    const operation = genAiOperationName(ctx.route.operation!);
    const model = ctx.model === null ? null : ctx.model.slice(ctx.model.indexOf('/') + 1);
    const span = this.#tracer.startSpan(
      model === null ? operation : `${operation} ${model}`,
      { kind: SpanKind.CLIENT, startTime: epochMs(endMono - attempt.duration_ms) },
      trace.setSpan(ROOT_CONTEXT, parent),
    );
    if (span.isRecording()) {
      span.setAttribute('gen_ai.operation.name', operation);
      span.setAttribute('sluice.provider', attempt.provider);
      span.setAttribute('http.response.status_code', attempt.status);
      if (ctx.target !== null) span.setAttribute('gen_ai.provider.name', genAiProviderName(ctx.target.provider.type));
      if (model !== null) span.setAttribute('gen_ai.request.model', model);
      if (attempt.error === null) setAnswer(span, facts?.model ?? null, facts?.finishReasons ?? [], ctx.usage);
      else span.setStatus({ code: SpanStatusCode.ERROR, message: attempt.error });
    }
    span.end(epochMs(endMono));
  }
}

function answered(span: Span, reply: JsonReply | StreamReply): void {
  if (span.isRecording() && reply.kind === 'json') {
    span.setAttribute('http.response.status_code', reply.status);
    const facts = answerFacts(reply.body !== undefined ? reply.body : reply.raw);
    setAnswer(span, facts.model, facts.finishReasons, reply.usage);
  }
  span.end(now());
}

function setAnswer(span: Span, model: string | null, finishReasons: string[], usage: Usage | null): void {
  if (model !== null) span.setAttribute('gen_ai.response.model', model);
  if (finishReasons.length > 0) span.setAttribute('gen_ai.response.finish_reasons', finishReasons);
  if (usage !== null) setUsage(span, usage);
}

function setUsage(span: Span, usage: Usage): void {
  span.setAttribute('gen_ai.usage.input_tokens', usage.input_tokens);
  span.setAttribute('gen_ai.usage.output_tokens', usage.output_tokens);
}

/** The HTTP conventions: a server span is in error from a 5xx on, a client span from a 4xx. */
const SERVER_ERROR_FROM = 500;
const CLIENT_ERROR_FROM = 400;

function failed(span: Span, error: GatewayError, errorFrom: number): void {
  if (!span.isRecording()) return;
  span.setAttribute('error.type', error.code ?? error.type);
  span.setAttribute('http.response.status_code', error.status);
  if (error.status >= errorFrom) span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}
