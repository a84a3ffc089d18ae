// The series one kind of finished request adds to (one route, provider, model and attribution):
// found once, then each is a direct reference. A series is made when first added to, as
// prom-client makes it, so a series the traffic never touched is not served at 0.
import type { GatewayMetrics } from './gateway-metrics.js';
import type { CounterSeries, HistogramSeries, Labels } from './series.js';

export class RequestSeries {
  readonly #metrics: GatewayMetrics;
  /** Route, provider and model: the timings' labels. */
  readonly #timing: { route: string; provider: string; model: string };
  /** The opted-in labels (key, request labels): on requests, tokens and cost. */
  readonly #attribution: Labels;
  readonly #requests = new Map<string, CounterSeries>();
  readonly #tokens = new Map<string, CounterSeries>();
  #duration: HistogramSeries | null = null;
  #timeToFirstToken: HistogramSeries | null = null;
  #cost: CounterSeries | null = null;

  constructor(metrics: GatewayMetrics, timing: { route: string; provider: string; model: string }, attribution: Labels) {
    this.#metrics = metrics;
    this.#timing = timing;
    this.#attribution = attribution;
  }

  requests(statusClass: string): CounterSeries {
    let series = this.#requests.get(statusClass);
    if (series === undefined) {
      series = this.#metrics.requests.series({ ...this.#timing, status_class: statusClass, ...this.#attribution });
      this.#requests.set(statusClass, series);
    }
    return series;
  }

  duration(): HistogramSeries {
    return (this.#duration ??= this.#metrics.requestDuration.series(this.#timing));
  }

  timeToFirstToken(): HistogramSeries {
    return (this.#timeToFirstToken ??= this.#metrics.timeToFirstToken.series(this.#timing));
  }

  /** `type`: input, output, cached_input or reasoning. */
  tokens(type: string): CounterSeries {
    let series = this.#tokens.get(type);
    if (series === undefined) {
      series = this.#metrics.tokens.series({ provider: this.#timing.provider, model: this.#timing.model, type, ...this.#attribution });
      this.#tokens.set(type, series);
    }
    return series;
  }

  cost(): CounterSeries {
    return (this.#cost ??= this.#metrics.cost.series({ provider: this.#timing.provider, model: this.#timing.model, ...this.#attribution }));
  }
}
