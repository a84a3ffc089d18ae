// Hourly usage rollups, dialect-neutral: the cells a batch of entries adds to, summed in memory
// so a batch costs one upsert per distinct (hour, dimension, value). Every entry counts once in
// `all`, `key`, `model` and `provider`; once per distinct label value in `label:<name>`; and once
// in `labelled:<name>`, so a label grouping's "no label" row is `all` minus it, exact even when
// an entry has several values for one label. '' stands for no value (keys cannot hold null).
import type { AuditEntry } from '../audit-entry.js';
import { isUnpriced, usageModel } from '../audit-entry.js';

export const HOUR_MS = 3_600_000;
export const NO_VALUE = '';

export interface RollupCell {
  /** Start of the UTC hour, ms since the epoch. */
  bucketHour: number;
  dim: string;
  value: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costPico: bigint;
  unpricedRequests: number;
  cacheHits: number;
}

export function hourOf(ts: number): number {
  return Math.floor(ts / HOUR_MS) * HOUR_MS;
}

/** The distinct non-empty values of an entry's own label `name` (an empty value counts as none). */
export function labelValues(labels: AuditEntry['labels'], name: string): string[] {
  if (!Object.hasOwn(labels, name)) return [];
  const value = labels[name]!;
  return [...new Set(typeof value === 'string' ? [value] : value)].filter((v) => v !== NO_VALUE);
}

export class RollupSums {
  readonly #cells = new Map<string, RollupCell>();

  add(e: AuditEntry): void {
    const hour = hourOf(e.ts);
    this.#add(hour, 'all', NO_VALUE, e);
    this.#add(hour, 'key', e.key_id ?? NO_VALUE, e);
    this.#add(hour, 'model', usageModel(e) ?? NO_VALUE, e);
    this.#add(hour, 'provider', e.provider ?? NO_VALUE, e);
    for (const name of Object.keys(e.labels)) {
      const values = labelValues(e.labels, name);
      for (const v of values) this.#add(hour, `label:${name}`, v, e);
      if (values.length > 0) this.#add(hour, `labelled:${name}`, NO_VALUE, e);
    }
  }

  cells(): Iterable<RollupCell> {
    return this.#cells.values();
  }

  #add(bucketHour: number, dim: string, value: string, e: AuditEntry): void {
    const key = `${bucketHour}\u0000${dim}\u0000${value}`;
    let cell = this.#cells.get(key);
    if (cell === undefined) {
      cell = { bucketHour, dim, value, requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costPico: 0n, unpricedRequests: 0, cacheHits: 0 };
      this.#cells.set(key, cell);
    }
    cell.requests++;
    cell.inputTokens += e.input_tokens;
    cell.outputTokens += e.output_tokens;
    cell.totalTokens += e.total_tokens;
    if (e.cost_pico !== null) cell.costPico += BigInt(e.cost_pico);
    if (isUnpriced(e)) cell.unpricedRequests++;
    if (e.cache_hit) cell.cacheHits++;
  }
}
