// Counters and histograms for the request path, read by prom-client's registry when scraped.
// prom-client hashes and validates a label object on every inc and observe (its labels() child
// does the same per call); here a series is looked up once per label-value combination, and
// from then on a request adds to a plain number, or a histogram's bucket counts.
import type { Metric, Registry } from 'prom-client';

export type Labels = Readonly<Record<string, string>>;

/** A map key for label values, one per combination whatever they hold: each value after its length. */
export function labelKey(values: readonly string[]): string {
  let key = '';
  for (const value of values) key += `${value.length}:${value}`;
  return key;
}

export class CounterSeries {
  value = 0;

  constructor(readonly labels: Labels) {}

  /** prom-client refuses a value that is not a finite number; here it is not counted. */
  inc(by = 1): void {
    if (Number.isFinite(by)) this.value += by;
  }
}

export class HistogramSeries {
  sum = 0;
  count = 0;
  /** Observations per bucket, not cumulative; the last one is above the highest bound. */
  readonly counts: number[];

  constructor(readonly labels: Labels, readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket++;
    this.counts[bucket]!++;
    this.sum += value;
    this.count++;
  }
}

/** What prom-client's registry reads of a metric: its series as samples when scraped. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

abstract class SeriesMetric<S extends CounterSeries | HistogramSeries> {
  readonly aggregator = 'sum';
  readonly #series = new Map<string, S>();

  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly string[], registry: Registry) {
    // The registry reads any object with this shape (get, reset); its types name only prom-client's own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of these labels (exactly the metric's label names), made at its first use. */
  series(labels: Labels): S {
    const key = labelKey(this.labelNames.map((name) => labels[name] ?? ''));
    let found = this.#series.get(key);
    if (found === undefined) {
      const names = Object.keys(labels);
      if (names.length !== this.labelNames.length || names.some((n) => !this.labelNames.includes(n))) {
        throw new Error(`${this.name}: labels ${names.join(', ')} are not ${this.labelNames.join(', ')}`);
      }
      found = this.create(labels);
      this.#series.set(key, found);
    }
    return found;
  }

  /** Zeroes every series in place: whoever holds one keeps adding to the metric. */
  reset(): void {
    for (const series of this.#series.values()) this.zero(series);
  }

  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Sample[] }> {
    const values: Sample[] = [];
    for (const series of this.#series.values()) this.samples(series, values);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  abstract readonly type: string;
  protected abstract create(labels: Labels): S;
  protected abstract zero(series: S): void;
  protected abstract samples(series: S, into: Sample[]): void;
}

export class SeriesCounter extends SeriesMetric<CounterSeries> {
  readonly type = 'counter';

  protected create(labels: Labels): CounterSeries {
    return new CounterSeries(labels);
  }

  protected zero(series: CounterSeries): void {
    series.value = 0;
  }

  protected samples(series: CounterSeries, into: Sample[]): void {
    into.push({ labels: series.labels, value: series.value });
  }
}

export class SeriesHistogram extends SeriesMetric<HistogramSeries> {
  readonly type = 'histogram';
  readonly #bounds: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], bounds: readonly number[], registry: Registry) {
    super(name, help, labelNames, registry);
    this.#bounds = bounds;
  }

  protected create(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.#bounds);
  }

  protected zero(series: HistogramSeries): void {
    series.counts.fill(0);
    series.sum = 0;
    series.count = 0;
  }

  /** As prom-client writes a histogram: cumulative buckets, `+Inf`, then the sum and the count. */
  protected samples(series: HistogramSeries, into: Sample[]): void {
    let cumulative = 0;
    for (let i = 0; i < this.#bounds.length; i++) {
      cumulative += series.counts[i]!;
      into.push({ labels: { ...series.labels, le: this.#bounds[i]! }, value: cumulative, metricName: `${this.name}_bucket` });
    }
    into.push({ labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: `${this.name}_bucket` });
    into.push({ labels: series.labels, value: series.sum, metricName: `${this.name}_sum` });
    into.push({ labels: series.labels, value: series.count, metricName: `${this.name}_count` });
  }
}
