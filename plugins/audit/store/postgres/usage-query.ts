// GET /admin/usage in PostgreSQL: whole hours of the window from usage_rollup, its partial edge
// hours from the raw entries, so any window is exact. The caller runs it in one snapshot.
import type { PoolClient } from 'pg';
import type { UsageGroupBy, UsageRow } from '../store.js';
import { NO_VALUE } from '../usage-rollup.js';
import { splitWindow, UsageSums } from '../usage-sums.js';
import type { SumRow } from '../usage-sums.js';
import { pgText } from './entry-columns.js';

const SUMS = `count(*) AS requests, coalesce(sum(e.input_tokens), 0) AS input_tokens, coalesce(sum(e.output_tokens), 0) AS output_tokens,
  coalesce(sum(e.total_tokens), 0) AS total_tokens, coalesce(sum(e.cost_pico), 0) AS cost_pico,
  count(*) FILTER (WHERE e.cost_pico IS NULL AND e.provider IS NOT NULL) AS unpriced_requests`;

const ROLLUP = `SELECT value, sum(requests) AS requests, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
  sum(total_tokens) AS total_tokens, sum(cost_pico) AS cost_pico, sum(unpriced_requests) AS unpriced_requests
  FROM usage_rollup WHERE dim = $1 AND bucket_hour >= $2 AND bucket_hour < $3 GROUP BY value`;

// The edges: at most two ranges, $1-$2 and $3-$4 (an unused one is empty).
const EDGES = '((e.ts >= $1 AND e.ts < $2) OR (e.ts >= $3 AND e.ts < $4))';
const HAS_LABEL = 'EXISTS (SELECT 1 FROM audit_labels l WHERE l.name = $5 AND l.ts = e.ts AND l.seq = e.seq)';

const RAW: Readonly<Record<'key' | 'model' | 'provider', string>> = {
  key: raw('e.key_id'),
  model: raw('e.usage_model'),
  provider: raw('e.provider'),
};
const RAW_LABEL_VALUES = `SELECT l.value AS value, ${SUMS} FROM audit_labels l JOIN audit_entries e ON e.seq = l.seq
  WHERE l.name = $5 AND ((l.ts >= $1 AND l.ts < $2) OR (l.ts >= $3 AND l.ts < $4)) GROUP BY l.value`;
const RAW_UNLABELLED = `SELECT '${NO_VALUE}' AS value, ${SUMS} FROM audit_entries e WHERE ${EDGES} AND NOT ${HAS_LABEL} HAVING count(*) > 0`;

function raw(column: string): string {
  return `SELECT coalesce(${column}, '${NO_VALUE}') AS value, ${SUMS} FROM audit_entries e WHERE ${EDGES} GROUP BY 1`;
}

export async function usageRows(db: PoolClient, groupBy: UsageGroupBy, from: number, to: number): Promise<UsageRow[]> {
  const window = splitWindow(from, to);
  const edges = [...window.raw.flat(), 0, 0, 0, 0].slice(0, 4);
  const sums = new UsageSums();
  const rollup = async (dim: string, sign: 1 | -1 = 1): Promise<void> => {
    if (window.hours === null) return;
    sums.addAll((await db.query<SumRow>(ROLLUP, [dim, ...window.hours])).rows, sign);
  };
  const rawRows = async (sql: string, ...more: unknown[]): Promise<void> => {
    if (window.raw.length > 0) sums.addAll((await db.query<SumRow>(sql, [...edges, ...more])).rows);
  };
  if (!groupBy.startsWith('label:')) {
    await rollup(groupBy);
    await rawRows(RAW[groupBy as keyof typeof RAW]);
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
