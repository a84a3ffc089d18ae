// Exact usage over any [from, to): whole UTC hours come from the rollups, the partial hours at
// either edge (and whole hours not rolled up yet) from the raw entries. Dialect-neutral: stores
// supply the two kinds of sums, this file splits the window and adds the parts up.
import { HOUR_MS, NO_VALUE } from './rollup.js';
import type { UsageRow } from './store.js';

export interface UsageWindow {
  /** Whole hours [start, end) read from rollups; null when the window holds none. */
  hours: readonly [number, number] | null;
  /** Sub-hour ranges [start, end) read from raw entries (0 to 2 of them). */
  raw: ReadonlyArray<readonly [number, number]>;
}

/** `rolledUntil`: the rollups hold every hour before it (an hour boundary), none after. */
export function splitWindow(from: number, to: number, rolledUntil: number = Infinity): UsageWindow {
  const first = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const last = Math.min(Math.floor(to / HOUR_MS) * HOUR_MS, Math.max(first, rolledUntil));
  if (first >= last) return { hours: null, raw: from < to ? [[from, to]] : [] };
  const raw: Array<readonly [number, number]> = [];
  if (from < first) raw.push([from, first]);
  if (last < to) raw.push([last, to]);
  return { hours: [first, last], raw };
}

/** Adds up partial sums by value; missing values (stored as '') come out as null. */
export class UsageSum {
  readonly #rows = new Map<string, UsageRow>();

  add(value: string | null, requests: number, input: number, output: number, total: number, costPico: bigint, unpriced: number): void {
    const key = value ?? NO_VALUE;
    let row = this.#rows.get(key);
    if (row === undefined) {
      row = { value: key === NO_VALUE ? null : key, requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_pico: 0n, unpriced_requests: 0 };
      this.#rows.set(key, row);
    }
    row.requests += requests;
    row.input_tokens += input;
    row.output_tokens += output;
    row.total_tokens += total;
    row.cost_pico += costPico;
    row.unpriced_requests += unpriced;
  }

  /** Everything added so far, as one row. */
  total(): UsageRow {
    const t: UsageRow = { value: null, requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_pico: 0n, unpriced_requests: 0 };
    for (const r of this.#rows.values()) {
      t.requests += r.requests;
      t.input_tokens += r.input_tokens;
      t.output_tokens += r.output_tokens;
      t.total_tokens += r.total_tokens;
      t.cost_pico += r.cost_pico;
      t.unpriced_requests += r.unpriced_requests;
    }
    return t;
  }

  /** Adds the "no value" row `all - part` (the calls without a label), when there are any. */
  addDifference(all: UsageRow, part: UsageRow): void {
    const requests = all.requests - part.requests;
    if (requests <= 0) return;
    this.add(
      null,
      requests,
      all.input_tokens - part.input_tokens,
      all.output_tokens - part.output_tokens,
      all.total_tokens - part.total_tokens,
      all.cost_pico - part.cost_pico,
      all.unpriced_requests - part.unpriced_requests,
    );
  }

  /** By cost, then requests, descending; then by value so equal rows keep a stable order. */
  sorted(): UsageRow[] {
    return [...this.#rows.values()].sort((a, b) => {
      if (a.cost_pico !== b.cost_pico) return a.cost_pico > b.cost_pico ? -1 : 1;
      if (a.requests !== b.requests) return b.requests - a.requests;
      return (a.value ?? '').localeCompare(b.value ?? '');
    });
  }
}
