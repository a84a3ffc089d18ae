// API keys in PostgreSQL. Each write is one transaction that first takes a transaction-level
// advisory lock, so writes of keys take turns across every gateway on the database and versions
// become visible in their order: a replica that polled up to version n missed nothing below n.
import type { Pool, PoolClient } from 'pg';
import { changedKey, deletedKey, keyOfRow, keyStatements, rewriteValues, rowValues } from '../key-rows.js';
import type { KeyFields, KeysStore, NewKey, StoredKey } from '../store.js';
import { inTransaction, withClient } from './transaction.js';

const SQL = keyStatements((n) => `$${n}`);
const LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('sluice.api_keys', 0))";

export class PostgresKeysStore implements KeysStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  create(key: NewKey): Promise<StoredKey> {
    return this.#write(async (db) => keyOfRow((await db.query(SQL.insert, rowValues({ ...key, updated_at: key.created_at, deleted: false }))).rows[0] as Record<string, unknown>));
  }

  get(id: string): Promise<StoredKey | null> {
    return this.#one(SQL.byId, id);
  }

  async list(): Promise<StoredKey[]> {
    return (await this.#pool.query<Record<string, unknown>>(SQL.list)).rows.map(keyOfRow);
  }

  update(id: string, fields: Partial<KeyFields>, at: number): Promise<StoredKey | null> {
    return this.#rewrite(id, (stored) => changedKey(stored, fields, at));
  }

  async delete(id: string, at: number): Promise<boolean> {
    return (await this.#rewrite(id, (stored) => deletedKey(stored, at))) !== null;
  }

  findByHash(secretHash: string): Promise<StoredKey | null> {
    return this.#one(SQL.byHash, secretHash);
  }

  async changedSince(version: number, limit: number): Promise<StoredKey[]> {
    return (await this.#pool.query<Record<string, unknown>>(SQL.changedSince, [version, limit])).rows.map(keyOfRow);
  }

  #rewrite(id: string, next: (stored: StoredKey) => StoredKey): Promise<StoredKey | null> {
    return this.#write(async (db) => {
      const { rows } = await db.query<Record<string, unknown>>(SQL.byId, [id]);
      if (rows.length === 0) return null;
      return keyOfRow((await db.query(SQL.rewrite, rewriteValues(next(keyOfRow(rows[0]!))))).rows[0] as Record<string, unknown>);
    });
  }

  #write<T>(work: (db: PoolClient) => Promise<T>): Promise<T> {
    return withClient(this.#pool, (db) =>
      inTransaction(db, async () => {
        await db.query(LOCK);
        return work(db);
      }),
    );
  }

  async #one(sql: string, value: string): Promise<StoredKey | null> {
    const { rows } = await this.#pool.query<Record<string, unknown>>(sql, [value]);
    return rows.length === 0 ? null : keyOfRow(rows[0]!);
  }
}
