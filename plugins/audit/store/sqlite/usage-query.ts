// GET /admin/usage in SQLite: whole hours of the window from usage_rollup, its partial edge
// hours from the raw entries, so any window is exact.
import type { Database, Statement } from 'better-sqlite3';
import type { UsageGroupBy, UsageRow } from '../store.js';
import { NO_VALUE } from '../usage-rollup.js';
import { splitWindow, UsageSums } from '../usage-sums.js';
import type { SumRow } from '../usage-sums.js';

const SUMS = `count(*) AS requests, sum(e.input_tokens) AS input_tokens, sum(e.output_tokens) AS output_tokens, sum(e.total_tokens) AS total_tokens,
  coalesce(sum(e.cost_pico), 0) AS cost_pico, sum(e.cost_pico IS NULL AND e.provider IS NOT NULL) AS unpriced_requests`;

// The column each plain grouping reads; labels go through audit_labels.
const COLUMN = { key: 'e.key_id', model: 'e.usage_model', provider: 'e.provider', all: `'${NO_VALUE}'` } as const;

export class UsageQuery {
  readonly #rollup: Statement;
  readonly #raw: Record<keyof typeof COLUMN, Statement>;
  readonly #rawLabel: Statement;
  readonly #rawLabelled: Statement;

  constructor(db: Database) {
    const big = (sql: string): Statement => db.prepare(sql).safeIntegers(true);
    this.#rollup = big(`SELECT value, sum(requests) AS requests, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(total_tokens) AS total_tokens,
      sum(cost_pico) AS cost_pico, sum(unpriced_requests) AS unpriced_requests FROM usage_rollup WHERE dim = ? AND bucket_hour >= ? AND bucket_hour < ? GROUP BY value`);
    const raw = (column: string): Statement => big(`SELECT coalesce(${column}, '${NO_VALUE}') AS value, ${SUMS} FROM audit_entries e WHERE e.ts >= ? AND e.ts < ? GROUP BY 1`);
    this.#raw = { key: raw(COLUMN.key), model: raw(COLUMN.model), provider: raw(COLUMN.provider), all: raw(COLUMN.all) };
    this.#rawLabel = big(`SELECT l.value AS value, ${SUMS} FROM audit_labels l JOIN audit_entries e ON e.seq = l.seq WHERE l.name = ? AND l.ts >= ? AND l.ts < ? GROUP BY l.value`);
    this.#rawLabelled = big(`SELECT '${NO_VALUE}' AS value, ${SUMS} FROM audit_entries e
      WHERE e.seq IN (SELECT seq FROM audit_labels WHERE name = ? AND ts >= ? AND ts < ?)`);
  }

  rows(groupBy: UsageGroupBy, from: number, to: number): UsageRow[] {
    if (!groupBy.startsWith('label:')) return this.#sum(groupBy, from, to, (a, b) => this.#raw[groupBy as 'key'].all(a, b) as SumRow[]).rows();
    const name = groupBy.slice('label:'.length);
    const values = this.#sum(groupBy, from, to, (a, b) => this.#rawLabel.all(name, a, b) as SumRow[]);
    const all = this.#sum('all', from, to, (a, b) => this.#raw.all.all(a, b) as SumRow[]).get(NO_VALUE);
    const labelled = this.#sum(`labelled:${name}`, from, to, (a, b) => this.#rawLabelled.all(name, a, b) as SumRow[]).get(NO_VALUE);
    // The calls without the label: all of them minus those carrying it, under ''.
    if (all !== undefined) values.add(asSumRow(all));
    if (labelled !== undefined) values.add(asSumRow(labelled), -1);
    return values.rows();
  }

  #sum(dim: string, from: number, to: number, raw: (from: number, to: number) => SumRow[]): UsageSums {
    const sums = new UsageSums();
    const window = splitWindow(from, to);
    if (window.hours !== null) sums.addAll(this.#rollup.all(dim, window.hours[0], window.hours[1]) as SumRow[]);
    for (const [a, b] of window.raw) sums.addAll(raw(a, b));
    return sums;
  }
}

function asSumRow(r: UsageRow): SumRow {
  return { ...r, value: NO_VALUE };
}
