// How an API key maps onto a row of `api_keys`, the same in SQLite and PostgreSQL: one column
// per field (labels and allowed models as JSON text), statements written once with the
// dialect's placeholder. Both stores read the row, merge a change here and write it back whole.
import type { KeyFields, NewKey, StoredKey } from './store.js';

/** Every column in the order of rowValues(); `version` is computed by the statements. */
const WRITTEN = [
  'id', 'secret_hash', 'name', 'labels', 'budget_usd', 'budget_period', 'rpm', 'tpm', 'concurrent',
  'allowed_models', 'expires_at', 'disabled', 'admin', 'created_at', 'updated_at', 'deleted',
] as const;
const COLUMNS = [...WRITTEN, 'version'].join(', ');

/** The next version: one more than any key ever had (tombstones keep theirs). */
const NEXT_VERSION = '(SELECT coalesce(max(version), 0) + 1 FROM api_keys)';

export interface KeyStatements {
  byId: string;
  byHash: string;
  list: string;
  changedSince: string;
  insert: string;
  /** Writes every column of a row, with a new version: takes rewriteValues(). */
  rewrite: string;
}

/** The statements, with `placeholder(n)` for the n-th parameter (1-based; they appear in order). */
export function keyStatements(placeholder: (n: number) => string): KeyStatements {
  const p = placeholder;
  return {
    byId: `SELECT ${COLUMNS} FROM api_keys WHERE id = ${p(1)} AND NOT deleted`,
    byHash: `SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = ${p(1)} AND NOT deleted`,
    list: `SELECT ${COLUMNS} FROM api_keys WHERE NOT deleted ORDER BY created_at, id`,
    changedSince: `SELECT ${COLUMNS} FROM api_keys WHERE version > ${p(1)} ORDER BY version LIMIT ${p(2)}`,
    insert: `INSERT INTO api_keys (${COLUMNS}) VALUES (${WRITTEN.map((_, i) => p(i + 1)).join(', ')}, ${NEXT_VERSION}) RETURNING ${COLUMNS}`,
    rewrite: `UPDATE api_keys SET ${WRITTEN.slice(1).map((c, i) => `${c} = ${p(i + 1)}`).join(', ')}, version = ${NEXT_VERSION} WHERE id = ${p(WRITTEN.length)} RETURNING ${COLUMNS}`,
  };
}

/** The values of WRITTEN, in order; booleans as 1/0, which both databases take. */
export function rowValues(key: NewKey & { updated_at: number; deleted: boolean }): unknown[] {
  return [
    key.id,
    key.secret_hash,
    key.name,
    JSON.stringify(key.labels),
    key.budget?.amount_usd ?? null,
    key.budget?.period ?? null,
    key.rate_limit?.rpm ?? null,
    key.rate_limit?.tpm ?? null,
    key.rate_limit?.concurrent ?? null,
    key.allowed_models === null ? null : JSON.stringify(key.allowed_models),
    key.expires_at,
    key.disabled ? 1 : 0,
    key.admin ? 1 : 0,
    key.created_at,
    key.updated_at,
    key.deleted ? 1 : 0,
  ];
}

/** A row as either driver returns it: PostgreSQL's bigints as strings, SQLite's booleans as 0/1. */
export function keyOfRow(row: Record<string, unknown>): StoredKey {
  const rpm = numberOrNull(row['rpm']);
  const tpm = numberOrNull(row['tpm']);
  const concurrent = numberOrNull(row['concurrent']);
  return {
    id: row['id'] as string,
    secret_hash: row['secret_hash'] as string,
    name: row['name'] as string,
    labels: JSON.parse(row['labels'] as string) as Record<string, string>,
    budget: row['budget_period'] === null ? null : { amount_usd: Number(row['budget_usd']), period: row['budget_period'] as NonNullable<KeyFields['budget']>['period'] },
    rate_limit: rpm === null && tpm === null && concurrent === null ? null : { rpm, tpm, concurrent },
    allowed_models: row['allowed_models'] === null ? null : (JSON.parse(row['allowed_models'] as string) as string[]),
    expires_at: numberOrNull(row['expires_at']),
    disabled: row['disabled'] === true || row['disabled'] === 1,
    admin: row['admin'] === true || row['admin'] === 1,
    created_at: Number(row['created_at']),
    updated_at: Number(row['updated_at']),
    version: Number(row['version']),
    deleted: row['deleted'] === true || row['deleted'] === 1,
  };
}

/** The row after a change: the fields given replace the stored ones. */
export function changedKey(stored: StoredKey, fields: Partial<KeyFields>, at: number): StoredKey {
  return { ...stored, ...fields, updated_at: at };
}

/** The row of a deleted key: a tombstone that keeps its hash, so replicas can drop it. */
export function deletedKey(stored: StoredKey, at: number): StoredKey {
  return { ...stored, deleted: true, updated_at: at };
}

/** The values of the rewrite statement: the columns after the id, then the id. */
export function rewriteValues(key: StoredKey): unknown[] {
  const values = rowValues(key);
  values.push(values.shift());
  return values;
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** The table, in either dialect's types. */
export function keysTableSql(types: { text: string; int: string; real: string; bool: string }): string {
  const { text, int, real, bool } = types;
  return `
  -- API keys: only the SHA-256 of each secret. version orders every change (tombstones too), so
  -- replicas poll "changed since" instead of re-reading every key.
  CREATE TABLE api_keys (
    id ${text} PRIMARY KEY,
    secret_hash ${text} NOT NULL UNIQUE,
    name ${text} NOT NULL,
    labels ${text} NOT NULL,
    budget_usd ${real},
    budget_period ${text},
    rpm ${int},
    tpm ${int},
    concurrent ${int},
    allowed_models ${text},
    expires_at ${int},
    disabled ${bool} NOT NULL,
    admin ${bool} NOT NULL,
    created_at ${int} NOT NULL,
    updated_at ${int} NOT NULL,
    deleted ${bool} NOT NULL,
    version ${int} NOT NULL UNIQUE
  );
`;
}
