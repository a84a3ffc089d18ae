// What a finished model request adds to the metrics, read from the context at the log stage:
// status, route, target, usage, cost, cache result, attempts, timings. Features built later
// (a cache, limits, failover) show up here through those fields, with no change to this file.
import type { RequestContext } from '../../core/context.js';
import type { Attribution } from './attribution.js';
import { BoundedValues } from './bounded-values.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { RequestSeries } from './request-series.js';
import { labelKey } from './series.js';
import type { CounterSeries, HistogramSeries } from './series.js';

/** The error codes of the contract's 429s, and the reason label each counts under. */
const REJECTION_REASONS: Readonly<Record<string, string>> = { rate_limit_exceeded: 'rate_limit', budget_exceeded: 'budget' };

/** A provider's attempts of one status class: how many, and how long each took. */
interface AttemptSeries {
  attempts: CounterSeries;
  duration: HistogramSeries;
}

export class RequestRecorder {
  readonly #metrics: GatewayMetrics;
  readonly #attribution: Attribution;
  readonly #models: BoundedValues;
  /**
   * By route, provider, model and attribution values, each bounded by the config or a cap: as
   * many entries as the metrics have series, found with one lookup per request.
   */
  readonly #requests = new Map<string, RequestSeries>();
  /** By provider and status class. */
  readonly #attempts = new Map<string, AttemptSeries>();

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
    const series = this.#requestSeries(route, provider, model, this.#attribution.values(ctx));
    series.requests(statusClass(ctx.status)).inc();
    if (ctx.durationMs !== null) series.duration().observe(ctx.durationMs / 1000);
    if (ctx.stream && ctx.firstByteMs !== null) series.timeToFirstToken().observe(ctx.firstByteMs / 1000);
    this.#recordAttempts(ctx, route);
    const usage = ctx.usage;
    if (usage !== null) {
      series.tokens('input').inc(usage.input_tokens);
      series.tokens('output').inc(usage.output_tokens);
      // Most calls have neither: a series starts with the first that does.
      if (usage.cached_input_tokens > 0) series.tokens('cached_input').inc(usage.cached_input_tokens);
      if (usage.reasoning_tokens > 0) series.tokens('reasoning').inc(usage.reasoning_tokens);
    }
    const usd = ctx.cost?.total_usd;
    if (usd !== undefined && usd !== null) series.cost().inc(Number(usd));
    this.#cache(ctx);
    const code = ctx.error?.code;
    const reason = code ? REJECTION_REASONS[code] : undefined;
    if (reason !== undefined) m.rejections.inc({ reason });
  }

  #requestSeries(route: string, provider: string, model: string, attributed: readonly string[]): RequestSeries {
    const key = labelKey([route, provider, model, ...attributed]);
    let series = this.#requests.get(key);
    if (series === undefined) {
      series = new RequestSeries(this.#metrics, { route, provider, model }, this.#attribution.labels(attributed));
      this.#requests.set(key, series);
    }
    return series;
  }

  #recordAttempts(ctx: RequestContext, route: string): void {
    const attempts = ctx.attempts;
    for (const a of attempts) {
      const status = statusClass(a.status);
      const key = labelKey([a.provider, status]);
      let series = this.#attempts.get(key);
      if (series === undefined) {
        const labels = { provider: a.provider, status_class: status };
        series = { attempts: this.#metrics.providerAttempts.series(labels), duration: this.#metrics.upstreamDuration.series(labels) };
        this.#attempts.set(key, series);
      }
      series.attempts.inc();
      series.duration.observe(a.duration_ms / 1000);
    }
    if (attempts.length > 1) this.#metrics.failovers.inc({ route }, attempts.length - 1);
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
