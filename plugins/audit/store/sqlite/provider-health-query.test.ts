// GET /admin/providers reads a window of rows through the indexes, never the whole table: the
// query plans SQLite makes for its statements, held to that.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PROVIDER_HEALTH_SQL } from './provider-health-query.js';
import { SqliteStore } from './sqlite-store.js';

describe('provider health in SQLite', () => {
  it('searches audit_entries by the ts index, then by (provider, ts), and scans nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-provider-health-'));
    try {
      await new SqliteStore(join(dir, 'sluice.db')).close();
      const db = new Database(join(dir, 'sluice.db'), { readonly: true });
      const plan = (sql: string, ...params: unknown[]): string[] => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
      try {
        expect(plan(PROVIDER_HEALTH_SQL.totals, 0, 1)).to.deep.equal(['SEARCH e USING INDEX audit_entries_ts (ts>? AND ts<?)', 'USE TEMP B-TREE FOR GROUP BY']);
        expect(plan(PROVIDER_HEALTH_SQL.p95, 'openai', 0, 1, 0)).to.deep.equal(['SEARCH e USING INDEX audit_entries_provider (provider=? AND ts>? AND ts<?)', 'USE TEMP B-TREE FOR ORDER BY']);
        expect(plan(PROVIDER_HEALTH_SQL.lastError, 'openai', 0, 1)).to.deep.equal(['SEARCH e USING INDEX audit_entries_provider (provider=? AND ts>? AND ts<?)']);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
