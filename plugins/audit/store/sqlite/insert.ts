// Writes a batch of entries, inside the caller's transaction: each row, its labels, its bodies'
// search index when it is kept, and the rollup cells the batch adds to. An id stored already is skipped whole.
import type { Database, Statement } from 'better-sqlite3';
import type { AuditEntry } from '../../audit-entry.js';
import { labelValues, RollupSums } from '../usage-rollup.js';
import { ENTRY_COLUMNS, ENTRY_PLACEHOLDERS, rowValues } from './entry-columns.js';

interface Statements {
  entry: Statement;
  label: Statement;
  bodies: Statement;
  rollup: Statement;
}

const prepared = new WeakMap<Database, Statements>();

function statementsOf(db: Database): Statements {
  let s = prepared.get(db);
  if (s === undefined) {
    s = {
      entry: db.prepare(`INSERT INTO audit_entries (${ENTRY_COLUMNS}) VALUES (${ENTRY_PLACEHOLDERS}) ON CONFLICT (id) DO NOTHING RETURNING seq`).pluck(),
      label: db.prepare('INSERT OR IGNORE INTO audit_labels (name, value, ts, seq) VALUES (?, ?, ?, ?)'),
      bodies: db.prepare('INSERT INTO audit_bodies (rowid, request_body, response_body) VALUES (?, ?, ?)'),
      rollup: db.prepare(`INSERT INTO usage_rollup (bucket_hour, dim, value, requests, input_tokens, output_tokens, total_tokens, cost_pico, unpriced_requests, cache_hits)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (dim, bucket_hour, value) DO UPDATE SET
          requests = requests + excluded.requests,
          input_tokens = input_tokens + excluded.input_tokens,
          output_tokens = output_tokens + excluded.output_tokens,
          total_tokens = total_tokens + excluded.total_tokens,
          cost_pico = cost_pico + excluded.cost_pico,
          unpriced_requests = unpriced_requests + excluded.unpriced_requests,
          cache_hits = cache_hits + excluded.cache_hits`),
    };
    prepared.set(db, s);
  }
  return s;
}

/**
 * Returns how many were new. `bodyIndex`: whether the bodies' word index is kept. Entries started
 * before `rollupFrom` are left out of the rollups.
 */
export function insertEntries(db: Database, entries: readonly AuditEntry[], bodyIndex: boolean, rollupFrom = -Infinity): number {
  const s = statementsOf(db);
  const sums = new RollupSums();
  let inserted = 0;
  for (const e of entries) {
    const seq = s.entry.get(...rowValues(e)) as number | undefined;
    if (seq === undefined) continue;
    inserted++;
    for (const name of Object.keys(e.labels)) for (const value of labelValues(e.labels, name)) s.label.run(name, value, e.ts, seq);
    if (bodyIndex && (e.request_body !== null || e.response_body !== null)) s.bodies.run(seq, e.request_body, e.response_body);
    if (e.ts >= rollupFrom) sums.add(e);
  }
  for (const c of sums.cells()) s.rollup.run(c.bucketHour, c.dim, c.value, c.requests, c.inputTokens, c.outputTokens, c.totalTokens, c.costPico, c.unpricedRequests, c.cacheHits);
  return inserted;
}
