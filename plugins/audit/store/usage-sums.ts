// Usage rows being summed from rollup cells and raw entries, by value. Dialect-neutral: both
// stores add what their queries give and read the sorted rows.
import type { UsageRow } from './store.js';
import { HOUR_MS, NO_VALUE } from './usage-rollup.js';

/** What one query row gives (counts may come as bigint from the driver). */
export interface SumRow {
  value: string;
  requests: number | bigint;
  input_tokens: number | bigint;
  output_tokens: number | bigint;
  total_tokens: number | bigint;
  cost_pico: number | bigint | string;
  unpriced_requests: number | bigint;
}

export class UsageSums {
  readonly #rows = new Map<string, UsageRow>();

  add(r: SumRow, sign: 1 | -1 = 1): void {
    let row = this.#rows.get(r.value);
    if (row === undefined) {
      row = { value: r.value, requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_pico: 0n, unpriced_requests: 0 };
      this.#rows.set(r.value, row);
    }
    row.requests += sign * Number(r.requests);
    row.input_tokens += sign * Number(r.input_tokens);
    row.output_tokens += sign * Number(r.output_tokens);
    row.total_tokens += sign * Number(r.total_tokens);
    row.cost_pico += BigInt(sign) * BigInt(r.cost_pico);
    row.unpriced_requests += sign * Number(r.unpriced_requests);
  }

  addAll(rows: readonly SumRow[], sign: 1 | -1 = 1): this {
    for (const r of rows) this.add(r, sign);
    return this;
  }

  get(value: string): UsageRow | undefined {
    return this.#rows.get(value);
  }

  /** Rows with requests, '' as null, by cost then requests (descending), then value. */
  rows(): UsageRow[] {
    return sortUsage([...this.#rows.values()].filter((r) => r.requests > 0).map((r) => ({ ...r, value: r.value === NO_VALUE ? null : r.value })));
  }
}

export function sortUsage(rows: UsageRow[]): UsageRow[] {
  return rows.sort((a, b) => {
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
