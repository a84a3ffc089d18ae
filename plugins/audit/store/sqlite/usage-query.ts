// GET /admin/usage in SQLite: whole hours of the window from usage_rollup, its partial edge
// hours from the raw entries, so any window is exact; each row in its time bucket
// (usage-buckets.ts: @origin and @size in every statement).
import type { Database, Statement } from 'better-sqlite3';
import type { UsageBucket, UsageGroupBy, UsageRow } from '../store.js';
import { bucketing } from '../usage-buckets.js';
import { NO_VALUE } from '../usage-rollup.js';
import { splitWindow, UsageSums } from '../usage-sums.js';
import type { SumRow } from '../usage-sums.js';

const SUMS = `count(*) AS requests, sum(e.input_tokens) AS input_tokens, sum(e.output_tokens) AS output_tokens, sum(e.total_tokens) AS total_tokens,
  coalesce(sum(e.cost_pico), 0) AS cost_pico, sum(e.cost_pico IS NULL AND e.provider IS NOT NULL) AS unpriced_requests, sum(e.cache_hit) AS cache_hits`;

// The column each plain grouping reads; labels go through audit_labels.
const COLUMN = { key: 'e.key_id', model: 'e.usage_model', provider: 'e.provider', all: `'${NO_VALUE}'` } as const;

function bucketOf(ts: string): string {
  return `${ts} - (${ts} - @origin) % @size`;
}

export class UsageQuery {
  readonly #rollup: Statement;
  readonly #raw: Record<keyof typeof COLUMN, Statement>;
  readonly #rawLabel: Statement;
  readonly #rawLabelled: Statement;

  constructor(db: Database) {
    const big = (sql: string): Statement => db.prepare(sql).safeIntegers(true);
    this.#rollup = big(`SELECT ${bucketOf('bucket_hour')} AS bucket, value, sum(requests) AS requests, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
      sum(total_tokens) AS total_tokens, sum(cost_pico) AS cost_pico, sum(unpriced_requests) AS unpriced_requests, sum(cache_hits) AS cache_hits
      FROM usage_rollup WHERE dim = @dim AND bucket_hour >= @from AND bucket_hour < @to GROUP BY 1, 2`);
    const raw = (column: string): Statement =>
      big(`SELECT ${bucketOf('e.ts')} AS bucket, coalesce(${column}, '${NO_VALUE}') AS value, ${SUMS} FROM audit_entries e WHERE e.ts >= @from AND e.ts < @to GROUP BY 1, 2`);
    this.#raw = { key: raw(COLUMN.key), model: raw(COLUMN.model), provider: raw(COLUMN.provider), all: raw(COLUMN.all) };
    this.#rawLabel = big(`SELECT ${bucketOf('l.ts')} AS bucket, l.value AS value, ${SUMS} FROM audit_labels l JOIN audit_entries e ON e.seq = l.seq
      WHERE l.name = @name AND l.ts >= @from AND l.ts < @to GROUP BY 1, 2`);
    this.#rawLabelled = big(`SELECT ${bucketOf('e.ts')} AS bucket, '${NO_VALUE}' AS value, ${SUMS} FROM audit_entries e
      WHERE e.seq IN (SELECT seq FROM audit_labels WHERE name = @name AND ts >= @from AND ts < @to) GROUP BY 1`);
  }

  rows(groupBy: UsageGroupBy | null, from: number, to: number, bucket: UsageBucket | null): UsageRow[] {
    const sums = new UsageSums();
    const buckets = bucketing(bucket, from, to);
    const window = splitWindow(from, to);
    const add = (dim: string, raw: Statement, name: string | null, sign: 1 | -1 = 1): void => {
      if (window.hours !== null) sums.addAll(this.#rollup.all({ ...buckets, dim, from: window.hours[0], to: window.hours[1] }) as SumRow[], sign);
      for (const [a, b] of window.raw) sums.addAll(raw.all({ ...buckets, from: a, to: b, ...(name !== null && { name }) }) as SumRow[], sign);
    };
    if (groupBy === null || !groupBy.startsWith('label:')) {
      const dim = groupBy ?? 'all';
      add(dim, this.#raw[dim as keyof typeof COLUMN], null);
      return sums.rows();
    }
    const name = groupBy.slice('label:'.length);
    add(groupBy, this.#rawLabel, name);
    // The calls without the label, under '': all of them minus those carrying it.
    add('all', this.#raw.all, null);
    add(`labelled:${name}`, this.#rawLabelled, name, -1);
    return sums.rows();
  }
}
