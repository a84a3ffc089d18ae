// Hourly usage rollups, aggregated in memory so that many entries cost one upsert per distinct
// (hour, dimension, value), not one per entry. Every entry counts once in `all`, `key`, `model`
// and `provider`; once per distinct value of each label it carries in `label:<name>`; and once
// in `labelled:<name>`. Stores persist the cells; no SQL here.
import { isUnpriced } from './entry.js';
import type { AuditSummary } from './entry.js';

/** What a rollup reads of an entry (a whole entry or a store's record). */
export type RollupInput = Pick<AuditSummary, 'ts' | 'model' | 'resolved_model' | 'provider' | 'key_id' | 'labels' | 'input_tokens' | 'output_tokens' | 'total_tokens' | 'cost_pico'>;

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

/**
 * Calls `each` once per distinct value of a label that counts (an empty value counts as no
 * label); returns whether there was one. Raw sums use it too, so both agree exactly.
 */
export function forEachLabelValue(value: string | readonly string[], each: (value: string) => void): boolean {
  if (typeof value === 'string') {
    if (value === NO_VALUE) return false;
    each(value);
    return true;
  }
  let counted = false;
  for (let i = 0; i < value.length; i++) {
    const v = value[i]!;
    if (v === NO_VALUE || value.indexOf(v) !== i) continue;
    each(v);
    counted = true;
  }
  return counted;
}

/** Sums of one or more entries that share their hour, key, model, provider and labels. */
export interface RollupSums {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  costPico: bigint;
  unpricedRequests: number;
}

export class RollupBatch {
  readonly #cells = new Map<string, RollupCell>();

  add(e: RollupInput): void {
    const sums: RollupSums = {
      requests: 1,
      inputTokens: e.input_tokens,
      outputTokens: e.output_tokens,
      totalTokens: e.total_tokens,
      costPico: e.cost_pico === null ? 0n : BigInt(e.cost_pico),
      unpricedRequests: isUnpriced(e) ? 1 : 0,
    };
    this.addGroup(hourOf(e.ts), e.key_id, modelValue(e), e.provider, e.labels, sums);
  }

  /** Entries already summed by their dimensions (a store's GROUP BY). */
  addGroup(hour: number, key: string | null, model: string, provider: string | null, labels: AuditSummary['labels'], sums: RollupSums): void {
    this.#addTo(hour, ALL_DIM, NO_VALUE, sums);
    this.#addTo(hour, 'key', key ?? NO_VALUE, sums);
    this.#addTo(hour, 'model', model, sums);
    this.#addTo(hour, 'provider', provider ?? NO_VALUE, sums);
    for (const name in labels) {
      const dim = `label:${name}`;
      if (forEachLabelValue(labels[name]!, (v) => this.#addTo(hour, dim, v, sums))) this.#addTo(hour, labelledDim(name), NO_VALUE, sums);
    }
  }

  cells(): IterableIterator<RollupCell> {
    return this.#cells.values();
  }

  get size(): number {
    return this.#cells.size;
  }

  #addTo(hour: number, dim: string, value: string, sums: RollupSums): void {
    const key = `${hour}\u0000${dim}\u0000${value}`;
    let cell = this.#cells.get(key);
    if (cell === undefined) {
      cell = { bucketHour: hour, dim, value, requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costPico: 0n, unpricedRequests: 0 };
      this.#cells.set(key, cell);
    }
    cell.requests += sums.requests;
    cell.inputTokens += sums.inputTokens;
    cell.outputTokens += sums.outputTokens;
    cell.totalTokens += sums.totalTokens;
    cell.costPico += sums.costPico;
    cell.unpricedRequests += sums.unpricedRequests;
  }
}
