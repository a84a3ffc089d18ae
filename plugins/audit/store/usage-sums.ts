// Usage rows being summed from rollup cells and raw entries, by bucket and value.
// Dialect-neutral: both stores add what their queries give and read the sorted rows.
import type { UsageRow } from './store.js';
import { HOUR_MS, NO_VALUE } from './usage-rollup.js';

/** What one query row gives (counts may come as bigint or text from the driver). */
export interface SumRow {
  /** The bucket's start (usage-buckets.ts). */
  bucket: number | bigint | string;
  value: string;
  requests: number | bigint;
  input_tokens: number | bigint;
  output_tokens: number | bigint;
  total_tokens: number | bigint;
  cost_pico: number | bigint | string;
  unpriced_requests: number | bigint;
  cache_hits: number | bigint;
}

export class UsageSums {
  readonly #rows = new Map<string, UsageRow>();

  add(r: SumRow, sign: 1 | -1 = 1): void {
    const bucket = Number(r.bucket);
    const key = `${bucket}\u0000${r.value}`;
    let row = this.#rows.get(key);
    if (row === undefined) {
      row = { bucket, value: r.value, requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_pico: 0n, unpriced_requests: 0, cache_hits: 0 };
      this.#rows.set(key, row);
    }
    row.requests += sign * Number(r.requests);
    row.input_tokens += sign * Number(r.input_tokens);
    row.output_tokens += sign * Number(r.output_tokens);
    row.total_tokens += sign * Number(r.total_tokens);
    row.cost_pico += BigInt(sign) * BigInt(r.cost_pico);
    row.unpriced_requests += sign * Number(r.unpriced_requests);
    row.cache_hits += sign * Number(r.cache_hits);
  }

  addAll(rows: readonly SumRow[], sign: 1 | -1 = 1): this {
    for (const r of rows) this.add(r, sign);
    return this;
  }

  /** Rows with requests, '' as null, by bucket, then by cost and requests (descending), then value. */
  rows(): UsageRow[] {
    return sortUsage([...this.#rows.values()].filter((r) => r.requests > 0).map((r) => ({ ...r, value: r.value === NO_VALUE ? null : r.value })));
  }
}

export function sortUsage(rows: UsageRow[]): UsageRow[] {
  return rows.sort((a, b) => {
    if (a.bucket !== b.bucket) return a.bucket - b.bucket;
    if (a.cost_pico !== b.cost_pico) return a.cost_pico < b.cost_pico ? 1 : -1;
    if (a.requests !== b.requests) return b.requests - a.requests;
    if (a.value === b.value) return 0;
    return a.value === null ? 1 : b.value === null ? -1 : a.value < b.value ? -1 : 1;
  });
}

export interface UsageWindow {
  /** Whole UTC hours inside the window, from the rollups: [from, to), or null when none. */
  hours: [number, number] | null;
  /** The rest, from raw entries. */
  raw: Array<[number, number]>;
}

export function splitWindow(from: number, to: number): UsageWindow {
  const first = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const last = Math.floor(to / HOUR_MS) * HOUR_MS;
  if (first >= last) return { hours: null, raw: [[from, to]] };
  const raw: Array<[number, number]> = [];
  if (from < first) raw.push([from, first]);
  if (last < to) raw.push([last, to]);
  return { hours: [first, last], raw };
}
