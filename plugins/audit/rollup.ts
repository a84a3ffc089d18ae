// Hourly usage rollups, aggregated in memory per batch so that a batch of 500 entries costs one
// upsert per distinct (hour, dimension, value), not one per entry. Every entry counts once in
// `all`, `key`, `model` and `provider`; once per distinct value of each label it carries in
// `label:<name>`; and once in `labelled:<name>`. Stores persist the cells; no SQL here.
import { isUnpriced } from './entry.js';
import type { AuditSummary } from './entry.js';

export const HOUR_MS = 3_600_000;

/** Totals of every entry, whatever its labels: what a label grouping's "no label" row is derived from. */
export const ALL_DIM = 'all';

/**
 * Entries carrying label <name> (any value), counted once each: `all` minus this is the "no
 * label" row of a label grouping, exact even when an entry has several values for one label.
 */
export function labelledDim(name: string): string {
  return `labelled:${name}`;
}

/** Stored in place of a missing model or provider (primary keys cannot hold null). */
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
}

export function hourOf(ts: number): number {
  return Math.floor(ts / HOUR_MS) * HOUR_MS;
}

/** The value an entry is grouped under for `model`: what it resolved to, else what was asked. */
export function modelValue(e: Pick<AuditSummary, 'resolved_model' | 'model'>): string {
  return e.resolved_model ?? e.model ?? NO_VALUE;
}

export class RollupBatch {
  readonly #cells = new Map<string, RollupCell>();

  add(e: AuditSummary): void {
    const hour = hourOf(e.ts);
    const cost = e.cost_pico === null ? 0n : BigInt(e.cost_pico);
    const unpriced = isUnpriced(e) ? 1 : 0;
    this.#addTo(hour, ALL_DIM, NO_VALUE, e, cost, unpriced);
    this.#addTo(hour, 'key', e.key_id ?? NO_VALUE, e, cost, unpriced);
    this.#addTo(hour, 'model', modelValue(e), e, cost, unpriced);
    this.#addTo(hour, 'provider', e.provider ?? NO_VALUE, e, cost, unpriced);
    const labels = e.labels;
    for (const name in labels) {
      const value = labels[name]!;
      let labelled = false;
      // An empty value counts as no label. Each distinct value counts the entry once.
      if (typeof value === 'string') {
        if (value !== NO_VALUE) {
          this.#addTo(hour, `label:${name}`, value, e, cost, unpriced);
          labelled = true;
        }
      } else {
        for (let i = 0; i < value.length; i++) {
          const v = value[i]!;
          if (v === NO_VALUE || value.indexOf(v) !== i) continue;
          this.#addTo(hour, `label:${name}`, v, e, cost, unpriced);
          labelled = true;
        }
      }
      if (labelled) this.#addTo(hour, labelledDim(name), NO_VALUE, e, cost, unpriced);
    }
  }

  cells(): IterableIterator<RollupCell> {
    return this.#cells.values();
  }

  get size(): number {
    return this.#cells.size;
  }

  #addTo(hour: number, dim: string, value: string, e: AuditSummary, cost: bigint, unpriced: number): void {
    const key = `${hour}\u0000${dim}\u0000${value}`;
    let cell = this.#cells.get(key);
    if (cell === undefined) {
      cell = { bucketHour: hour, dim, value, requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costPico: 0n, unpricedRequests: 0 };
      this.#cells.set(key, cell);
    }
    cell.requests += 1;
    cell.inputTokens += e.input_tokens;
    cell.outputTokens += e.output_tokens;
    cell.totalTokens += e.total_tokens;
    cell.costPico += cost;
    cell.unpricedRequests += unpriced;
  }
}
