// The SQLite store's schema history. Each step runs once at open, in its own transaction, and
// leaves its row in `schema_migrations`. Step 1 also upgrades the segment-file store that came
// before (audit schema 3): its entries are moved into the new table in that transaction, so a
// crash leaves the old layout whole; its segment files are deleted once the step committed.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Migration } from '../store.js';
import { keysTableSql } from '../key-rows.js';
import { columnDefinitions } from './entry-columns.js';
import { legacyBatches } from './legacy-segments.js';
import { insertEntries } from './insert.js';

export const MIGRATIONS: ReadonlyArray<Migration<Database>> = [
  {
    version: 1,
    name: 'audit entries, labels, body search, hourly usage rollups',
    up(db) {
      const legacy = hasColumn(db, 'audit_entries', 'off');
      if (legacy) db.exec('ALTER TABLE audit_entries RENAME TO legacy_audit_entries');
      db.exec(`
  -- One row per entry; seq is the insertion order (ties of one millisecond).
  CREATE TABLE audit_entries (
    seq INTEGER PRIMARY KEY,
    ${columnDefinitions()},
    -- What usage and the model filter group by: the resolved model, else the requested one.
    usage_model TEXT GENERATED ALWAYS AS (coalesce(resolved_model, model)) VIRTUAL
  );
  CREATE INDEX audit_entries_ts ON audit_entries (ts);
  CREATE INDEX audit_entries_model ON audit_entries (usage_model, ts);
  CREATE INDEX audit_entries_provider ON audit_entries (provider, ts);
  CREATE INDEX audit_entries_key ON audit_entries (key_id, ts);
  CREATE INDEX audit_entries_status ON audit_entries (status, ts);

  -- One row per distinct non-empty label value of an entry, for the label filter and usage.
  CREATE TABLE audit_labels (
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    ts INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (name, value, ts, seq)
  ) WITHOUT ROWID;
  CREATE INDEX audit_labels_ts ON audit_labels (ts);

  -- The bodies' words (rowid = seq), for q: candidates that LIKE then confirms (body-search.ts).
  CREATE VIRTUAL TABLE audit_bodies USING fts5 (request_body, response_body, content = '', contentless_delete = 1, detail = none, tokenize = 'unicode61 remove_diacritics 0');
  CREATE VIRTUAL TABLE audit_body_words USING fts5vocab (audit_bodies, 'row');

  -- Per UTC hour: totals by key, model, provider, label:<name> (each value), labelled:<name>
  -- (entries with the label, once each) and all; '' stands for no value.
  CREATE TABLE IF NOT EXISTS usage_rollup (
    bucket_hour INTEGER NOT NULL,
    dim TEXT NOT NULL,
    value TEXT NOT NULL,
    requests INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    total_tokens INTEGER NOT NULL,
    cost_pico INTEGER NOT NULL,
    unpriced_requests INTEGER NOT NULL,
    cache_hits INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dim, bucket_hour, value)
  ) WITHOUT ROWID;
`);
      if (legacy) {
        // The segment store's rollups (kept) predate the column its entries are now moved with.
        addCacheHitsColumn(db);
        moveLegacyEntries(db);
      }
    },
  },
  {
    version: 2,
    name: 'store settings: whether the body index is kept',
    up(db) {
      // The body index of a version 1 store is complete: it was always kept.
      db.exec(`CREATE TABLE store_settings (name TEXT PRIMARY KEY, value) WITHOUT ROWID;
  INSERT INTO store_settings (name, value) VALUES ('body_index', 1);`);
    },
  },
  {
    version: 3,
    name: 'api keys',
    up(db) {
      db.exec(keysTableSql({ text: 'TEXT', int: 'INTEGER', real: 'REAL', bool: 'INTEGER' }));
    },
  },
  {
    version: 4,
    name: 'cache hits in the usage rollups',
    up(db) {
      // Step 1 creates the table as the code has it today (with the column); a store made before has not.
      addCacheHitsColumn(db);
    },
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Brings the database to the latest version; refuses one written by a newer Sluice. */
export function migrate(db: Database): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const current = (db.prepare('SELECT coalesce(max(version), 0) FROM schema_migrations').pluck().get() as number) ?? 0;
  if (current > SCHEMA_VERSION) throw new Error(`the store is at schema version ${current}, newer than this Sluice knows (${SCHEMA_VERSION}); upgrade Sluice`);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    const legacy = hasColumn(db, 'audit_entries', 'off');
    db.transaction(() => {
      void m.up(db);
      record.run(m.version, m.name, new Date().toISOString());
    }).immediate();
    if (legacy) rmSync(join(dirname(db.name), 'audit'), { recursive: true, force: true });
  }
  return SCHEMA_VERSION;
}

/** Hours rolled up before the column existed count no hits (docs/audit.md). */
function addCacheHitsColumn(db: Database): void {
  if (!hasColumn(db, 'usage_rollup', 'cache_hits')) db.exec('ALTER TABLE usage_rollup ADD COLUMN cache_hits INTEGER NOT NULL DEFAULT 0');
}

function hasColumn(db: Database, table: string, column: string): boolean {
  return (db.prepare(`SELECT 1 FROM pragma_table_info(?) WHERE name = ?`).get(table, column) as unknown) !== undefined;
}

/**
 * The old rollups stay (same table, same cells) for the hours they completed; the hours from
 * its `rolled_until` on were partly in the old process's memory, so they are summed again.
 */
function moveLegacyEntries(db: Database): void {
  const rolledUntil = (db.prepare("SELECT value FROM audit_state WHERE name = 'rolled_until'").pluck().get() as number | undefined) ?? Number.MAX_SAFE_INTEGER;
  db.prepare('DELETE FROM usage_rollup WHERE bucket_hour >= ?').run(rolledUntil);
  for (const batch of legacyBatches(db, 'legacy_audit_entries', dirname(db.name), 1000)) insertEntries(db, batch, true, rolledUntil);
  db.exec(`DROP TABLE legacy_audit_entries; DROP TABLE IF EXISTS audit_ids; DROP TABLE IF EXISTS audit_state;
    DROP TABLE IF EXISTS audit_entries_v1; DROP TABLE IF EXISTS audit_labels_v1; DELETE FROM schema_version WHERE component = 'audit'`);
}
