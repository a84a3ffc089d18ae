// Writes a batch of entries inside the caller's transaction, in three statements whatever its
// size: the rows (an id stored already is skipped whole), their labels, and the rollup cells
// the new rows add to.
import type { PoolClient } from 'pg';
import type { AuditEntry } from '../../audit-entry.js';
import { labelValues, RollupSums } from '../usage-rollup.js';
import type { RollupCell } from '../usage-rollup.js';
import { ENTRY_COLUMNS, pgText, RECORD_COLUMNS, RECORD_VALUES, rowOf } from './entry-columns.js';

// One JSON parameter carries the batch (no limit on parameters); `n` keeps its order, so seq
// follows the order of insertion.
const INSERT_ENTRIES = `INSERT INTO audit_entries (${ENTRY_COLUMNS})
  SELECT ${RECORD_VALUES} FROM json_to_recordset($1::json) AS r(n integer, ${RECORD_COLUMNS}) ORDER BY n
  ON CONFLICT (id) DO NOTHING RETURNING id, seq`;

const INSERT_LABELS = `INSERT INTO audit_labels (name, value, ts, seq)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) ON CONFLICT DO NOTHING`;

const ADD_ROLLUPS = `INSERT INTO usage_rollup (bucket_hour, dim, value, requests, input_tokens, output_tokens, total_tokens, cost_pico, unpriced_requests, cache_hits)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[])
  ON CONFLICT (dim, bucket_hour, value) DO UPDATE SET
    requests = usage_rollup.requests + excluded.requests,
    input_tokens = usage_rollup.input_tokens + excluded.input_tokens,
    output_tokens = usage_rollup.output_tokens + excluded.output_tokens,
    total_tokens = usage_rollup.total_tokens + excluded.total_tokens,
    cost_pico = usage_rollup.cost_pico + excluded.cost_pico,
    unpriced_requests = usage_rollup.unpriced_requests + excluded.unpriced_requests,
    cache_hits = usage_rollup.cache_hits + excluded.cache_hits`;

/** Returns how many were new. */
export async function insertEntries(db: PoolClient, entries: readonly AuditEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const { rows } = await db.query<{ id: string; seq: string }>(INSERT_ENTRIES, [JSON.stringify(entries.map((e, n) => ({ n, ...rowOf(e) })))]);
  const seqOf = new Map(rows.map((r) => [r.id, r.seq]));
  const labels: Array<[string, string, number, string]> = [];
  const sums = new RollupSums();
  for (const e of entries) {
    const seq = seqOf.get(e.id);
    // Also skips the second of two entries with one id in the same batch.
    if (seq === undefined) continue;
    seqOf.delete(e.id);
    for (const name of Object.keys(e.labels)) for (const value of labelValues(e.labels, name)) labels.push([pgText(name), pgText(value), e.ts, seq]);
    sums.add(e);
  }
  if (labels.length > 0) await db.query(INSERT_LABELS, columnsOf(labels));
  // Cells in one order for every writer: two gateways updating the same cells then queue for
  // them instead of deadlocking.
  const cells = [...sums.cells()].sort(byCell);
  if (cells.length > 0) {
    await db.query(ADD_ROLLUPS, columnsOf(cells.map((c) => [c.bucketHour, pgText(c.dim), pgText(c.value), c.requests, c.inputTokens, c.outputTokens, c.totalTokens, String(c.costPico), c.unpricedRequests, c.cacheHits])));
  }
  return rows.length;
}

function byCell(a: RollupCell, b: RollupCell): number {
  if (a.dim !== b.dim) return a.dim < b.dim ? -1 : 1;
  if (a.bucketHour !== b.bucketHour) return a.bucketHour - b.bucketHour;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

/** Rows to one array per column, for unnest(). */
function columnsOf(rows: ReadonlyArray<readonly unknown[]>): unknown[][] {
  return rows[0]!.map((_, i) => rows.map((r) => r[i]));
}
