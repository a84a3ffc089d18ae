// The Store on PostgreSQL (`pg`): a small pool on the URL the config names, every table in one
// schema (search_path), every query parameterised. Several gateways may share one database:
// ids are the gateway's UUIDv7s, seq comes from the database's own sequence, rollups are added
// to (never overwritten) in the transaction of their entries.
import pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import type { AuditEntry } from '../../audit-entry.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { AuditFilter, AuditPage, AuditStore, ProviderHealth, Store, UsageBucket, UsageGroupBy, UsageRow } from '../store.js';
import { SCHEMA_NAME } from '../store-options.js';
import { ENTRY_COLUMNS, entryOfRow, pgText } from './entry-columns.js';
import { insertEntries } from './insert.js';
import { PostgresKeysStore } from './keys.js';
import { migrate } from './migrations.js';
import { pageSql } from './page-query.js';
import { providerHealthRows } from './provider-health-query.js';
import { inTransaction, withClient } from './transaction.js';
import { usageRows } from './usage-query.js';

export interface PostgresOptions {
  /** postgres://… */
  url: string;
  /** Default `public`; created when missing. */
  schema?: string;
}

// Connections per store: the writer's transactions, or a few admin reads at a time.
const POOL_SIZE = 4;

// Rows deleted per purge transaction: short enough that writers waiting on the rows barely notice.
const PURGE_CHUNK = 5000;

export class PostgresStore implements Store {
  readonly audit: PostgresAuditStore;
  readonly keys: PostgresKeysStore;
  readonly schemaVersion: number;
  readonly #pool: Pool;

  private constructor(pool: Pool, schemaVersion: number) {
    this.#pool = pool;
    this.schemaVersion = schemaVersion;
    this.audit = new PostgresAuditStore(pool);
    this.keys = new PostgresKeysStore(pool);
  }

  /** Connects, applies the migrations (creating the schema) and resolves when ready. */
  static async open(options: PostgresOptions): Promise<PostgresStore> {
    const schema = options.schema ?? 'public';
    // Written into search_path and DDL (quoted): plain lower-case names only.
    if (!SCHEMA_NAME.test(schema)) throw new Error(`store schema ${JSON.stringify(schema)} is not a plain lower-case SQL name`);
    const pool = new pg.Pool({ connectionString: options.url, max: POOL_SIZE, options: `-c search_path="${schema}"` });
    // An idle connection that fails (the server restarted) is dropped by the pool and the next
    // query connects anew and reports; unheard, the event would end the process.
    pool.on('error', () => undefined);
    try {
      return new PostgresStore(pool, await withClient(pool, (db) => migrate(db, schema)));
    } catch (err) {
      await pool.end();
      throw err;
    }
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}

export class PostgresAuditStore implements AuditStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async insert(entries: readonly AuditEntry[]): Promise<void> {
    await withClient(this.#pool, (db) => inTransaction(db, () => insertEntries(db, entries)));
  }

  async get(id: string): Promise<AuditEntry | null> {
    const { rows } = await this.#pool.query(`SELECT ${ENTRY_COLUMNS} FROM audit_entries WHERE id = $1`, [pgText(id)]);
    return rows.length === 0 ? null : entryOfRow(rows[0] as Record<string, unknown>);
  }

  async query(filter: AuditFilter, cursor: string | null, limit: number): Promise<AuditPage> {
    const before = cursor === null ? null : decodeCursor(cursor);
    // One row more than asked says whether another page exists.
    const { sql, params } = pageSql(filter, before, limit + 1);
    const { rows } = await this.#pool.query<Record<string, unknown>>(sql, params);
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    return {
      data: rows.map(({ seq: _seq, ...columns }) => entryOfRow(columns, true)),
      next_cursor: more && last !== undefined ? encodeCursor({ ts: Number(last['ts']), seq: Number(last['seq']) }) : null,
    };
  }

  usage(groupBy: UsageGroupBy | null, from: number, to: number, bucket: UsageBucket | null = null): Promise<UsageRow[]> {
    return this.#inSnapshot((db) => usageRows(db, groupBy, from, to, bucket));
  }

  providerHealth(from: number, to: number): Promise<ProviderHealth[]> {
    return this.#inSnapshot((db) => providerHealthRows(db, from, to));
  }

  /** One snapshot for several queries, so a batch committing meanwhile counts in all or none. */
  #inSnapshot<T>(work: (db: PoolClient) => Promise<T>): Promise<T> {
    return withClient(this.#pool, (db) => inTransaction(db, () => work(db), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'));
  }

  async purgeBefore(ts: number): Promise<number> {
    let total = 0;
    for (;;) {
      const { rows } = await this.#pool.query<{ n: string }>(PURGE, [ts, PURGE_CHUNK]);
      const n = Number(rows[0]!.n);
      total += n;
      if (n < PURGE_CHUNK) return total;
    }
  }
}

// The oldest rows and their labels, in one statement (one transaction); rollups stay.
const PURGE = `WITH gone AS (
    DELETE FROM audit_entries WHERE seq IN (SELECT seq FROM audit_entries WHERE ts < $1 ORDER BY ts, seq LIMIT $2) RETURNING ts, seq
  ), labels AS (
    DELETE FROM audit_labels l USING gone WHERE l.ts = gone.ts AND l.seq = gone.seq
  )
  SELECT count(*) AS n FROM gone`;
