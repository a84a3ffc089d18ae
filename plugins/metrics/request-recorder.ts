// What a finished model request adds to the metrics, read from the context at the log stage:
// status, route, target, usage, cost, cache result, attempts, timings. Features built later
// (a cache, limits, failover) show up here through those fields, with no change to this file.
import type { RequestContext } from '../../core/context.js';
import type { Attribution } from './attribution.js';
import { BoundedValues } from './bounded-values.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/** The error codes of the contract's 429s, and the reason label each counts under. */
const REJECTION_REASONS: Readonly<Record<string, string>> = { rate_limit_exceeded: 'rate_limit', budget_exceeded: 'budget' };

export class RequestRecorder {
  readonly #metrics: GatewayMetrics;
  readonly #attribution: Attribution;
  readonly #models: BoundedValues;

  constructor(metrics: GatewayMetrics, attribution: Attribution, maxModels: number) {
    this.#metrics = metrics;
    this.#attribution = attribution;
    this.#models = new BoundedValues(maxModels);
  }

  /** The request entered the pipeline (auth stage). */
  started(): void {
    this.#metrics.inFlight.inc();
  }

  /** The request's body said it streams (route stage). */
  streamStarted(): void {
    this.#metrics.streamsInFlight.inc();
  }

  /** `inFlight`, `streamed`: what started() and streamStarted() counted for it. */
  finished(ctx: RequestContext, inFlight: boolean, streamed: boolean): void {
    const m = this.#metrics;
    if (inFlight) m.inFlight.dec();
    if (streamed) m.streamsInFlight.dec();
    const target = ctx.target;
    const route = ctx.route.path;
    const provider = target === null ? '' : target.provider.name;
    // The id the client called (a passthrough call's once its body named one); an unrouted
    // request's model is whatever the client sent, so it is not a label value.
    const model = target === null ? '' : this.#models.admit(ctx.model ?? target.id);
    const requestLabels: Record<string, string> = { route, provider, model, status_class: statusClass(ctx.status) };
    this.#attribution.addTo(requestLabels, ctx);
    m.requests.inc(requestLabels);
    const timing = { route, provider, model };
    if (ctx.durationMs !== null) m.requestDuration.observe(timing, ctx.durationMs / 1000);
    if (ctx.stream && ctx.firstByteMs !== null) m.timeToFirstToken.observe(timing, ctx.firstByteMs / 1000);
    this.#attempts(ctx, route);
    const usageLabels: Record<string, string> = { provider, model };
    this.#attribution.addTo(usageLabels, ctx);
    this.#usage(ctx, usageLabels);
    this.#cache(ctx);
    const code = ctx.error?.code;
    const reason = code ? REJECTION_REASONS[code] : undefined;
    if (reason !== undefined) m.rejections.inc({ reason });
  }

  #attempts(ctx: RequestContext, route: string): void {
    const attempts = ctx.attempts;
    for (const a of attempts) {
      const labels = { provider: a.provider, status_class: statusClass(a.status) };
      this.#metrics.providerAttempts.inc(labels);
      this.#metrics.upstreamDuration.observe(labels, a.duration_ms / 1000);
    }
    if (attempts.length > 1) this.#metrics.failovers.inc({ route }, attempts.length - 1);
  }

  /** `labels`: provider, model and the attribution labels. */
  #usage(ctx: RequestContext, labels: Record<string, string>): void {
    const usage = ctx.usage;
    if (usage !== null) {
      const tokens = this.#metrics.tokens;
      tokens.inc({ ...labels, type: 'input' }, usage.input_tokens);
      tokens.inc({ ...labels, type: 'output' }, usage.output_tokens);
      // Most calls have neither: a series starts with the first that does.
      if (usage.cached_input_tokens > 0) tokens.inc({ ...labels, type: 'cached_input' }, usage.cached_input_tokens);
      if (usage.reasoning_tokens > 0) tokens.inc({ ...labels, type: 'reasoning' }, usage.reasoning_tokens);
    }
    const usd = ctx.cost?.total_usd;
    if (usd !== undefined && usd !== null) this.#metrics.cost.inc(labels, Number(usd));
  }

  /** A hit is on the context; a miss only in the contract's `x-cache` header, which only a cache sets. */
  #cache(ctx: RequestContext): void {
    if (ctx.cacheHit) this.#metrics.cache.inc({ result: 'hit' });
    else if (ctx.res.getHeader('x-cache') === 'MISS') this.#metrics.cache.inc({ result: 'miss' });
  }
}

const CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** `2xx`, `4xx`, ...; a client gone before the answer (499) is a 4xx. */
export function statusClass(status: number): string {
  return CLASSES[Math.floor(status / 100)] ?? 'unknown';
}
