// The audit tables in SQLite and their migrations. Each migration runs once, in its own
// transaction, and bumps this component's row of `schema_version` (a row per component, so
// other plugins sharing sluice.db can version their own tables beside these).
import type { Database } from 'better-sqlite3';
import { carriesTs } from './entry-id.js';

const COMPONENT = 'audit';

// SQL, or a function for a step SQL alone cannot take.
const MIGRATIONS: ReadonlyArray<string | ((db: Database) => void)> = [
  // 1: entries (bodies included), labels, hourly rollups.
  `
  CREATE TABLE audit_entries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    ts INTEGER NOT NULL,
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
  CREATE INDEX audit_entries_ts ON audit_entries (ts);
  CREATE INDEX audit_entries_model ON audit_entries (model, ts);
  CREATE INDEX audit_entries_provider ON audit_entries (provider, ts);
  CREATE INDEX audit_entries_key ON audit_entries (key_id, ts);
  CREATE INDEX audit_entries_status ON audit_entries (status, ts);

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
  // 2: narrow entries; headers, bodies and the rest move to segment files (segment-files.ts).
  // Version 1 rows are kept aside and moved over at open (sqlite-v1-rows.ts); rollups stay.
  `
  ALTER TABLE audit_entries RENAME TO audit_entries_v1;
  ALTER TABLE audit_labels RENAME TO audit_labels_v1;
  DROP INDEX audit_entries_ts;
  DROP INDEX audit_entries_model;
  DROP INDEX audit_entries_provider;
  DROP INDEX audit_entries_key;
  DROP INDEX audit_entries_status;
  DROP INDEX audit_labels_name_value;

  -- seq is ts * 2^20 + n (entry-sequence.ts): the rowid is the time order, so there is no ts
  -- index. The other filters have no index either: each costs ~1 us per insert or more, while
  -- a filtered page skips the hours the rollups show without a match (sqlite-page-rows.ts).
  CREATE TABLE audit_entries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    ts INTEGER NOT NULL,
    -- What usage groups the entry under: the resolved model id, else the requested one.
    model TEXT,
    provider TEXT,
    key_id TEXT,
    status INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    total_tokens INTEGER NOT NULL,
    cost_pico INTEGER,
    -- JSON object, null when the entry has none.
    labels TEXT,
    -- The entry's record in the segment file of its UTC day (segment-record.ts).
    off INTEGER NOT NULL,
    len INTEGER NOT NULL
  );
  -- Request ids are time-ordered (UUIDv7): this index grows at its end.
  CREATE UNIQUE INDEX audit_entries_id ON audit_entries (id);

  -- rolled_until: the rollup table counts every entry started before it (sqlite-rollups.ts);
  -- 2^53 - 1 is every entry. Version 1 counted each entry as it was stored.
  CREATE TABLE audit_state (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  INSERT INTO audit_state (name, value) VALUES ('rolled_until', 9007199254740991);
  `,
  // 3: no index on id (entry-id.ts): the rows of ids that do not carry their entry's ts are
  // listed in audit_ids, the others are found among their millisecond's rows.
  (db) => {
    // Indexed by seq too: retention deletes the listed ids of the rows it purges.
    db.exec('CREATE TABLE audit_ids (id TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID; CREATE INDEX audit_ids_seq ON audit_ids (seq)');
    const list = db.prepare('INSERT INTO audit_ids (id, seq) VALUES (?, ?)');
    const rows = db.prepare('SELECT id, ts, seq FROM audit_entries').safeIntegers(true);
    // Read whole before writing: a statement may not write while another still reads.
    const odd: Array<{ id: string; seq: bigint }> = [];
    for (const row of rows.iterate() as IterableIterator<{ id: string; ts: bigint; seq: bigint }>) {
      if (!carriesTs(row.id, Number(row.ts))) odd.push({ id: row.id, seq: row.seq });
    }
    for (const row of odd) list.run(row.id, row.seq);
    db.exec('DROP INDEX audit_entries_id');
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to `target` (SCHEMA_VERSION); refuses one written by a newer Sluice. */
export function migrate(db: Database, target: number = SCHEMA_VERSION): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM schema_version WHERE component = ?').get(COMPONENT) as { version: number } | undefined;
  const current = row?.version ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`the audit tables are at schema version ${current}, newer than this Sluice knows (${SCHEMA_VERSION}); upgrade Sluice`);
  }
  const setVersion = db.prepare('INSERT INTO schema_version (component, version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version');
  for (let v = current; v < target; v++) {
    db.transaction(() => {
      const migration = MIGRATIONS[v]!;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      setVersion.run(COMPONENT, v + 1);
    }).immediate();
  }
}
