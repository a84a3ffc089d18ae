// API keys in SQLite. Each write is one IMMEDIATE transaction (read the row, write it whole with
// the next version), so versions are handed out in commit order.
import type { Database, Statement } from 'better-sqlite3';
import { changedKey, deletedKey, keyOfRow, keyStatements, rewriteValues, rowValues } from '../key-rows.js';
import type { KeyFields, KeysStore, NewKey, StoredKey } from '../store.js';

const SQL = keyStatements(() => '?');

export class SqliteKeysStore implements KeysStore {
  readonly #byId: Statement;
  readonly #byHash: Statement;
  readonly #list: Statement;
  readonly #changedSince: Statement;
  readonly #create: (key: NewKey) => StoredKey;
  readonly #rewrite: (id: string, change: (stored: StoredKey) => StoredKey) => StoredKey | null;

  constructor(db: Database) {
    this.#byId = db.prepare(SQL.byId);
    this.#byHash = db.prepare(SQL.byHash);
    this.#list = db.prepare(SQL.list);
    this.#changedSince = db.prepare(SQL.changedSince);
    const insert = db.prepare(SQL.insert);
    const rewrite = db.prepare(SQL.rewrite);
    const create = db.transaction((key: NewKey) => keyOfRow(insert.get(...rowValues({ ...key, updated_at: key.created_at, deleted: false })) as Record<string, unknown>));
    this.#create = (key) => create.immediate(key);
    const change = db.transaction((id: string, next: (stored: StoredKey) => StoredKey) => {
      const row = this.#byId.get(id) as Record<string, unknown> | undefined;
      if (row === undefined) return null;
      return keyOfRow(rewrite.get(...rewriteValues(next(keyOfRow(row)))) as Record<string, unknown>);
    });
    this.#rewrite = (id, next) => change.immediate(id, next);
  }

  // async: a refused write (a duplicate id) rejects rather than throws.
  async create(key: NewKey): Promise<StoredKey> {
    return this.#create(key);
  }

  get(id: string): Promise<StoredKey | null> {
    return Promise.resolve(this.#one(this.#byId, id));
  }

  list(): Promise<StoredKey[]> {
    return Promise.resolve((this.#list.all() as Array<Record<string, unknown>>).map(keyOfRow));
  }

  async update(id: string, fields: Partial<KeyFields>, at: number): Promise<StoredKey | null> {
    return this.#rewrite(id, (stored) => changedKey(stored, fields, at));
  }

  async delete(id: string, at: number): Promise<boolean> {
    return this.#rewrite(id, (stored) => deletedKey(stored, at)) !== null;
  }

  findByHash(secretHash: string): Promise<StoredKey | null> {
    return Promise.resolve(this.#one(this.#byHash, secretHash));
  }

  changedSince(version: number, limit: number): Promise<StoredKey[]> {
    return Promise.resolve((this.#changedSince.all(version, limit) as Array<Record<string, unknown>>).map(keyOfRow));
  }

  #one(statement: Statement, value: string): StoredKey | null {
    const row = statement.get(value) as Record<string, unknown> | undefined;
    return row === undefined ? null : keyOfRow(row);
  }
}
