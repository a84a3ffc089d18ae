// The Store on SQLite (better-sqlite3), one database file in the data directory, WAL mode.
// better-sqlite3 is synchronous: the gateway only ever opens this class inside worker threads
// (store/worker-store.ts for reads, writer/journal-worker.ts for writes), never on the event
// loop that serves requests.
import { existsSync, writeFileSync } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import type { AuditEntry } from '../../audit-entry.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { AuditFilter, AuditPage, AuditStore, ProviderHealth, Store, UsageBucket, UsageGroupBy, UsageRow } from '../store.js';
import { applyBodyIndexSetting } from './body-index.js';
import { candidateQuery, MAX_WORDS } from './body-search.js';
import type { VocabularyLookup } from './body-search.js';
import { SqliteKeysStore } from './keys.js';
import { ENTRY_COLUMNS, entryOfRow } from './entry-columns.js';
import { insertEntries } from './insert.js';
import { migrate } from './migrations.js';
import { pageSql } from './page-query.js';
import { ProviderHealthQuery } from './provider-health-query.js';
import { UsageQuery } from './usage-query.js';

// Rows deleted per purge transaction: short enough that writers waiting on the lock barely notice.
const PURGE_CHUNK = 1000;

export interface SqliteOptions {
  /** Keep the bodies' word index: q narrows on it instead of scanning every body (body-index.ts). */
  bodyIndex: boolean;
}

export class SqliteStore implements Store {
  readonly audit: SqliteAuditStore;
  readonly keys: SqliteKeysStore;
  readonly schemaVersion: number;
  readonly #db: Db;

  constructor(file: string, options: SqliteOptions = { bodyIndex: false }) {
    // Bodies can hold personal data: the file is the gateway user's only.
    if (file !== ':memory:' && !existsSync(file)) writeFileSync(file, '', { mode: 0o600 });
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    this.schemaVersion = migrate(this.#db);
    applyBodyIndexSetting(this.#db, options.bodyIndex);
    this.audit = new SqliteAuditStore(this.#db, options.bodyIndex);
    this.keys = new SqliteKeysStore(this.#db);
  }

  close(): Promise<void> {
    this.#db.close();
    return Promise.resolve();
  }
}

export class SqliteAuditStore implements AuditStore {
  readonly #db: Db;
  readonly #insert: (entries: readonly AuditEntry[]) => number;
  readonly #get: Statement;
  readonly #usage: UsageQuery;
  readonly #providerHealth: ProviderHealthQuery;
  readonly #purge: (ts: number) => number;
  readonly #pages = new Map<string, Statement>();
  readonly #vocabulary: VocabularyLookup;
  readonly #bodyIndex: boolean;

  constructor(db: Db, bodyIndex: boolean) {
    this.#db = db;
    this.#bodyIndex = bodyIndex;
    this.#insert = db.transaction((entries: readonly AuditEntry[]) => insertEntries(db, entries, bodyIndex));
    this.#get = db.prepare(`SELECT ${ENTRY_COLUMNS} FROM audit_entries WHERE id = ?`);
    this.#usage = new UsageQuery(db);
    this.#providerHealth = new ProviderHealthQuery(db);
    this.#vocabulary = db.prepare(`SELECT term FROM audit_body_words WHERE term LIKE ? ESCAPE '\\' LIMIT ${MAX_WORDS}`).pluck() as VocabularyLookup;
    const oldest = `SELECT seq FROM audit_entries WHERE ts < ? ORDER BY ts, seq LIMIT ${PURGE_CHUNK}`;
    const bodies = db.prepare(`DELETE FROM audit_bodies WHERE rowid IN (${oldest})`);
    const labels = db.prepare(`DELETE FROM audit_labels WHERE ts < ? AND seq IN (${oldest})`);
    const entries = db.prepare(`DELETE FROM audit_entries WHERE seq IN (${oldest})`);
    this.#purge = db.transaction((ts: number) => {
      if (bodyIndex) bodies.run(ts);
      labels.run(ts, ts);
      return entries.run(ts).changes;
    });
  }

  /** Synchronous, for the journal worker, which times its transactions. Returns how many were new. */
  insertNow(entries: readonly AuditEntry[]): number {
    return this.#insert(entries);
  }

  insert(entries: readonly AuditEntry[]): Promise<void> {
    this.#insert(entries);
    return Promise.resolve();
  }

  get(id: string): Promise<AuditEntry | null> {
    const row = this.#get.get(id) as Record<string, unknown> | undefined;
    return Promise.resolve(row === undefined ? null : entryOfRow(row));
  }

  query(filter: AuditFilter, cursor: string | null, limit: number): Promise<AuditPage> {
    const before = cursor === null ? null : decodeCursor(cursor);
    const candidates = filter.q === undefined || !this.#bodyIndex ? '' : candidateQuery(filter.q, this.#vocabulary);
    if (candidates === null) return Promise.resolve({ data: [], next_cursor: null });
    // One row more than asked says whether another page exists.
    const { sql, params } = pageSql(filter, before, limit + 1, candidates);
    let statement = this.#pages.get(sql);
    if (statement === undefined) this.#pages.set(sql, (statement = this.#db.prepare(sql)));
    const rows = statement.all(...params) as Array<Record<string, unknown>>;
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    return Promise.resolve({
      data: rows.map((row) => {
        const { seq: _seq, ...columns } = row;
        return entryOfRow(columns, true);
      }),
      next_cursor: more && last !== undefined ? encodeCursor({ ts: last['ts'] as number, seq: last['seq'] as number }) : null,
    });
  }

  usage(groupBy: UsageGroupBy | null, from: number, to: number, bucket: UsageBucket | null = null): Promise<UsageRow[]> {
    return Promise.resolve(this.#usage.rows(groupBy, from, to, bucket));
  }

  providerHealth(from: number, to: number): Promise<ProviderHealth[]> {
    return Promise.resolve(this.#providerHealth.rows(from, to));
  }

  async purgeBefore(ts: number): Promise<number> {
    let total = 0;
    for (;;) {
      const n = this.#purge(ts);
      total += n;
      if (n < PURGE_CHUNK) return total;
      await yieldToLoop();
    }
  }
}
