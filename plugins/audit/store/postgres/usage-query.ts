// GET /admin/usage in PostgreSQL: whole hours of the window from usage_rollup, its partial edge
// hours from the raw entries, so any window is exact; each row in its time bucket
// (usage-buckets.ts: $1 origin and $2 size in every query). The caller runs it in one snapshot.
import type { PoolClient } from 'pg';
import type { UsageBucket, UsageGroupBy, UsageRow } from '../store.js';
import { bucketing } from '../usage-buckets.js';
import { NO_VALUE } from '../usage-rollup.js';
import { splitWindow, UsageSums } from '../usage-sums.js';
import type { SumRow } from '../usage-sums.js';
import { pgText } from './entry-columns.js';

const SUMS = `count(*) AS requests, coalesce(sum(e.input_tokens), 0) AS input_tokens, coalesce(sum(e.output_tokens), 0) AS output_tokens,
  coalesce(sum(e.total_tokens), 0) AS total_tokens, coalesce(sum(e.cost_pico), 0) AS cost_pico,
  count(*) FILTER (WHERE e.cost_pico IS NULL AND e.provider IS NOT NULL) AS unpriced_requests, count(*) FILTER (WHERE e.cache_hit) AS cache_hits`;

function bucketOf(ts: string): string {
  return `${ts} - (${ts} - $1::bigint) % $2::bigint`;
}

const ROLLUP = `SELECT ${bucketOf('bucket_hour')} AS bucket, value, sum(requests) AS requests, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
  sum(total_tokens) AS total_tokens, sum(cost_pico) AS cost_pico, sum(unpriced_requests) AS unpriced_requests, sum(cache_hits) AS cache_hits
  FROM usage_rollup WHERE dim = $3 AND bucket_hour >= $4 AND bucket_hour < $5 GROUP BY 1, 2`;

// The edges: at most two ranges, $3-$4 and $5-$6 (an unused one is empty).
const EDGES = '((e.ts >= $3 AND e.ts < $4) OR (e.ts >= $5 AND e.ts < $6))';
const HAS_LABEL = 'EXISTS (SELECT 1 FROM audit_labels l WHERE l.name = $7 AND l.ts = e.ts AND l.seq = e.seq)';

const RAW: Readonly<Record<'key' | 'model' | 'provider' | 'all', string>> = {
  key: raw('e.key_id'),
  model: raw('e.usage_model'),
  provider: raw('e.provider'),
  all: raw(`'${NO_VALUE}'`),
};
const RAW_LABEL_VALUES = `SELECT ${bucketOf('l.ts')} AS bucket, l.value AS value, ${SUMS} FROM audit_labels l JOIN audit_entries e ON e.seq = l.seq
  WHERE l.name = $7 AND ((l.ts >= $3 AND l.ts < $4) OR (l.ts >= $5 AND l.ts < $6)) GROUP BY 1, 2`;
const RAW_UNLABELLED = `SELECT ${bucketOf('e.ts')} AS bucket, '${NO_VALUE}' AS value, ${SUMS} FROM audit_entries e WHERE ${EDGES} AND NOT ${HAS_LABEL} GROUP BY 1`;

function raw(column: string): string {
  return `SELECT ${bucketOf('e.ts')} AS bucket, coalesce(${column}, '${NO_VALUE}') AS value, ${SUMS} FROM audit_entries e WHERE ${EDGES} GROUP BY 1, 2`;
}

export async function usageRows(db: PoolClient, groupBy: UsageGroupBy | null, from: number, to: number, bucket: UsageBucket | null): Promise<UsageRow[]> {
  const { origin, size } = bucketing(bucket, from, to);
  const window = splitWindow(from, to);
  const edges = [...window.raw.flat(), 0, 0, 0, 0].slice(0, 4);
  const sums = new UsageSums();
  const rollup = async (dim: string, sign: 1 | -1 = 1): Promise<void> => {
    if (window.hours === null) return;
    sums.addAll((await db.query<SumRow>(ROLLUP, [origin, size, dim, ...window.hours])).rows, sign);
  };
  const rawRows = async (sql: string, ...more: unknown[]): Promise<void> => {
    if (window.raw.length > 0) sums.addAll((await db.query<SumRow>(sql, [origin, size, ...edges, ...more])).rows);
  };
  if (groupBy === null || !groupBy.startsWith('label:')) {
    const dim = groupBy ?? 'all';
    await rollup(dim);
    await rawRows(RAW[dim as keyof typeof RAW]);
    return sums.rows();
  }
  const name = pgText(groupBy.slice('label:'.length));
  await rollup(`label:${name}`);
  // The calls without the label, under '': all of them minus those carrying it.
  await rollup('all');
  await rollup(`labelled:${name}`, -1);
  await rawRows(RAW_LABEL_VALUES, name);
  await rawRows(RAW_UNLABELLED, name);
  return sums.rows();
}
