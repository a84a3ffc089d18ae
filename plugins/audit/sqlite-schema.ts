// The audit tables in SQLite and their migrations. Each migration runs once, in its own
// transaction, and bumps this component's row of `schema_version` (a row per component, so
// other plugins sharing sluice.db can version their own tables beside these).
import type { Database } from 'better-sqlite3';

const COMPONENT = 'audit';

const MIGRATIONS: readonly string[] = [
  // 1: entries, labels, hourly rollups.
  `
  CREATE TABLE audit_entries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    ts INTEGER NOT NULL,
    -- What usage groups the entry under: the resolved model id, else the requested one.
    model TEXT,
    provider TEXT,
    key_id TEXT,
    status INTEGER NOT NULL,
    stream INTEGER NOT NULL,
    cache_hit INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    total_tokens INTEGER NOT NULL,
    cost_pico INTEGER,
    summary TEXT NOT NULL,
    detail TEXT NOT NULL,
    request_body TEXT,
    response_body TEXT
  );
  -- Every filter index ends in ts (and, implicitly, the rowid seq) so one filter plus the
  -- newest-first order and the keyset cursor are served by the index alone.
  CREATE INDEX audit_entries_ts ON audit_entries (ts);
  CREATE INDEX audit_entries_model ON audit_entries (model, ts);
  CREATE INDEX audit_entries_provider ON audit_entries (provider, ts);
  CREATE INDEX audit_entries_key ON audit_entries (key_id, ts);
  CREATE INDEX audit_entries_status ON audit_entries (status, ts);

  -- entry_id is audit_entries.seq: an integer keeps this table and its indexes small. A label
  -- may have several values on one entry (a delimited tagging header): a row each.
  CREATE TABLE audit_labels (
    entry_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (entry_id, name, value)
  ) WITHOUT ROWID;
  CREATE INDEX audit_labels_name_value ON audit_labels (name, value, entry_id);

  CREATE TABLE usage_rollup (
    bucket_hour INTEGER NOT NULL,
    dim TEXT NOT NULL,
    value TEXT NOT NULL,
    requests INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    total_tokens INTEGER NOT NULL,
    cost_pico INTEGER NOT NULL,
    unpriced_requests INTEGER NOT NULL,
    PRIMARY KEY (dim, bucket_hour, value)
  ) WITHOUT ROWID;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to SCHEMA_VERSION; refuses one written by a newer Sluice. */
export function migrate(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM schema_version WHERE component = ?').get(COMPONENT) as { version: number } | undefined;
  const current = row?.version ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`the audit tables are at schema version ${current}, newer than this Sluice knows (${SCHEMA_VERSION}); upgrade Sluice`);
  }
  const setVersion = db.prepare('INSERT INTO schema_version (component, version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version');
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      setVersion.run(COMPONENT, v + 1);
    }).immediate();
  }
}
