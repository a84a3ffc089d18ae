// The shared store suite on SQLite, in this thread and through the worker the gateway reads with;
// and the upgrade of a database of the previous schema version.
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStore } from '../store-suite.js';
import { syntheticEntry } from '../synthetic-entry.js';
import type { StoreFixture } from '../store-suite.js';
import { WorkerStore } from '../worker-store.js';
import { SqliteStore } from './sqlite-store.js';

function fixture(open: (file: string) => Promise<SqliteStore | WorkerStore>): StoreFixture {
  let dir: string | null = null;
  return {
    open() {
      dir ??= mkdtempSync(join(tmpdir(), 'sluice-store-'));
      return open(join(dir, 'sluice.db'));
    },
    destroy() {
      if (dir !== null) rmSync(dir, { recursive: true, force: true });
      dir = null;
      return Promise.resolve();
    },
  };
}

describeStore('sqlite', fixture((file) => Promise.resolve(new SqliteStore(file))));
describeStore('sqlite with the body index', fixture((file) => Promise.resolve(new SqliteStore(file, { bodyIndex: true }))));
describeStore('sqlite through its worker', fixture((file) => WorkerStore.open({ kind: 'sqlite', file, bodyIndex: true })));

describe('sqlite store: a database of schema version 3 (before cache hits were rolled up)', () => {
  it('gains the rollup column at open; its old hours count no hits, new entries count theirs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-store-'));
    const file = join(dir, 'sluice.db');
    try {
      const hour = Date.UTC(2026, 2, 2, 10);
      const entry = (n: number, ts: number, cacheHit: boolean) => syntheticEntry({ id: `0190${n}000-0000-7000-8000-00000000000${n}`, ts, cache_hit: cacheHit });
      const before = new SqliteStore(file);
      await before.audit.insert([entry(1, hour + 1000, true)]);
      await before.close();
      // As the previous version left it: no column, no step 4.
      const db = new Database(file);
      db.exec('ALTER TABLE usage_rollup DROP COLUMN cache_hits; DELETE FROM schema_migrations WHERE version = 4');
      db.close();
      const after = new SqliteStore(file);
      try {
        expect(after.schemaVersion).to.equal(4);
        await after.audit.insert([entry(2, hour + 2000, true)]);
        // Whole hour: from the rollup, where the entry stored before the column counts no hit.
        const [row] = await after.audit.usage(null, hour, hour + 3_600_000);
        expect([row!.requests, row!.cache_hits]).to.deep.equal([2, 1]);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
