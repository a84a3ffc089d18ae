// The PostgreSQL store's schema history. Each step runs once, in its own transaction, and leaves
// its row in `schema_migrations`. The whole run holds an advisory lock, so gateways starting
// together on one database take turns: the first migrates, the others find the work done.
import type { PoolClient } from 'pg';
import type { Migration } from '../store.js';
import { keysTableSql } from '../key-rows.js';
import { columnDefinitions } from './entry-columns.js';
import { createBodySearch } from './body-search.js';
import { inTransaction } from './transaction.js';

export const MIGRATIONS: ReadonlyArray<Migration<PoolClient>> = [
  {
    version: 1,
    name: 'audit entries, labels, body search, hourly usage rollups',
    async up(db) {
      await db.query(`
  -- One row per entry; seq is the insertion order (ties of one millisecond), from one sequence
  -- the database keeps, so gateways sharing it never collide.
  CREATE TABLE audit_entries (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ${columnDefinitions()},
    -- What usage and the model filter group by: the resolved model, else the requested one.
    usage_model text GENERATED ALWAYS AS (coalesce(resolved_model, model)) STORED,
    -- ts for people reading the table with psql.
    time timestamptz GENERATED ALWAYS AS (to_timestamp(ts / 1000.0)) STORED
  );
  CREATE INDEX audit_entries_ts ON audit_entries (ts, seq);
  CREATE INDEX audit_entries_model ON audit_entries (usage_model, ts, seq);
  CREATE INDEX audit_entries_provider ON audit_entries (provider, ts, seq);
  CREATE INDEX audit_entries_key ON audit_entries (key_id, ts, seq);
  CREATE INDEX audit_entries_status ON audit_entries (status, ts, seq);

  -- One row per distinct non-empty label value of an entry, for the label filter and usage.
  CREATE TABLE audit_labels (
    name text NOT NULL,
    value text NOT NULL,
    ts bigint NOT NULL,
    seq bigint NOT NULL,
    PRIMARY KEY (name, value, ts, seq)
  );
  CREATE INDEX audit_labels_entry ON audit_labels (ts, seq);

  -- Per UTC hour (ms): totals by key, model, provider, label:<name> (each value),
  -- labelled:<name> (entries with the label, once each) and all; '' stands for no value.
  CREATE TABLE usage_rollup (
    bucket_hour bigint NOT NULL,
    dim text NOT NULL,
    value text NOT NULL,
    requests bigint NOT NULL,
    input_tokens bigint NOT NULL,
    output_tokens bigint NOT NULL,
    total_tokens bigint NOT NULL,
    cost_pico bigint NOT NULL,
    unpriced_requests bigint NOT NULL,
    cache_hits bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (dim, bucket_hour, value)
  );
`);
      await createBodySearch(db);
    },
  },
  {
    version: 2,
    name: 'api keys',
    async up(db) {
      await db.query(keysTableSql({ text: 'text', int: 'bigint', real: 'double precision', bool: 'boolean' }));
    },
  },
  {
    version: 3,
    name: 'cache hits in the usage rollups',
    async up(db) {
      // Step 1 creates the table as the code has it today (with the column); a store made before has not.
      // Hours rolled up before count no hits (docs/audit.md).
      await db.query('ALTER TABLE usage_rollup ADD COLUMN IF NOT EXISTS cache_hits bigint NOT NULL DEFAULT 0');
    },
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

// One lock for every Sluice migration in the database: CREATE EXTENSION is database-wide, and a
// migration takes well under a second.
const LOCK = "hashtextextended('sluice.migrations', 0)";

/** Brings `schema` to the latest version; refuses one written by a newer Sluice. */
export async function migrate(db: PoolClient, schema: string): Promise<number> {
  await db.query(`SELECT pg_advisory_lock(${LOCK})`);
  try {
    await db.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)');
    const { rows } = await db.query<{ version: number }>('SELECT coalesce(max(version), 0) AS version FROM schema_migrations');
    const current = rows[0]!.version;
    if (current > SCHEMA_VERSION) throw new Error(`the store is at schema version ${current}, newer than this Sluice knows (${SCHEMA_VERSION}); upgrade Sluice`);
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      await inTransaction(db, async () => {
        await m.up(db);
        await db.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())', [m.version, m.name]);
      });
    }
    return SCHEMA_VERSION;
  } finally {
    await db.query(`SELECT pg_advisory_unlock(${LOCK})`);
  }
}
