// The storage interface: what the gateway keeps, whatever keeps it. SQLite in the data
// directory (store/sqlite/) and PostgreSQL (store/postgres/) implement it, and both pass one
// suite (store-suite.ts). A Store groups its parts by concern: `audit` (entries and usage)
// and `keys` (the API keys of the keys plugin); the spend of the control plane may join as a
// sibling member, so one database, one migration history and one connection setup serve all.
import type { KeyBudget, KeyRateLimit } from '../../../core/context.js';
import type { AuditEntry, AuditSummary } from '../audit-entry.js';

/** `key`, `model`, `provider` or `label:<name>`. */
export type UsageGroupBy = 'key' | 'model' | 'provider' | `label:${string}`;

/** Usage split per UTC hour or day (usage-buckets.ts). */
export type UsageBucket = 'hour' | 'day';

export interface LabelFilter {
  name: string;
  value: string;
}

export interface AuditFilter {
  /** The model usage counts an entry under: the resolved model id, else the requested one. */
  model?: string;
  provider?: string;
  /** A key id (`master` for the master key). */
  key?: string;
  /** Every label must match (AND); a multi-valued label matches any of its values. */
  labels?: readonly LabelFilter[];
  /** Inclusive status range: [200, 200], [400, 499], [400, 599] for any error. */
  status?: readonly [number, number];
  /** ms since the epoch, inclusive. */
  from?: number;
  /** ms since the epoch, exclusive. */
  to?: number;
  /** A literal substring of the request or response body, case-insensitive for ASCII letters. */
  q?: string;
}

export interface AuditPage {
  /** Newest first (by start time, then insertion order). */
  data: AuditSummary[];
  /** Opaque; null on the last page. */
  next_cursor: string | null;
}

export interface UsageRow {
  /** Start of the row's time bucket, ms since the epoch: the window's start when usage is not bucketed. */
  bucket: number;
  /** The key id, model id, provider or label value; null for calls without one. */
  value: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Exact, in picodollars (1e-12 USD); calls of unknown price add nothing. */
  cost_pico: bigint;
  /** Calls that reached a provider and have no known price. */
  unpriced_requests: number;
  /** Calls the response cache answered (counted in `requests` too, at cost 0). */
  cache_hits: number;
}

/** What went wrong last for a provider (ProviderHealth.last_error). */
export interface ProviderLastError {
  /** ms since the epoch. */
  ts: number;
  status: number;
  code: string | null;
  /** Null when the entry holds no error object (a passthrough answer relayed with the provider's own 5xx). */
  message: string | null;
}

/**
 * One provider's calls over a window, as GET /admin/providers reports them. Counted: entries
 * recorded under the provider, cache hits left out (they never reached it).
 */
export interface ProviderHealth {
  provider: string;
  requests: number;
  /**
   * The provider's failures: status 500 and above (its errors, timeouts, a connection that
   * failed, every target out), an error of type `provider_error` (also one that ended a stream
   * after its status was sent), and the provider's own 401, 403 and 429 (it refused the
   * gateway's credential or quota: `error.provider` is set).
   */
  errors: number;
  /** Every other 4xx: the request itself was refused (by the gateway or the provider), or its client left (499). */
  client_errors: number;
  /** Over the successful answers (status below 400, no error) that have a duration; null when there are none. */
  avg_duration_ms: number | null;
  /** Nearest rank: the value at rank ceil(0.95 n) of those durations, ascending. */
  p95_duration_ms: number | null;
  /** The newest error of the window (as `errors` counts them), or null. */
  last_error: ProviderLastError | null;
}

export interface AuditStore {
  /**
   * Stores a batch in one transaction, with its usage rollups. An entry whose id is stored
   * already is skipped and not counted again, so a retried batch or a replayed journal is
   * harmless.
   */
  insert(entries: readonly AuditEntry[]): Promise<void>;
  /** The whole entry, or null when unknown or purged. */
  get(id: string): Promise<AuditEntry | null>;
  /** One page, newest first; a cursor this store did not make is a 400 (GatewayError, param `cursor`). */
  query(filter: AuditFilter, cursor: string | null, limit: number): Promise<AuditPage>;
  /**
   * Exact totals over [from, to) (ms), per bucket: each UTC hour or day the window touches (the
   * first and last only as far as they lie inside it), or without `bucket` the whole window as
   * one. Sorted by bucket, then cost then requests, descending; rows without requests are left
   * out. A label grouping counts an entry once under each of its values, and the entries without
   * the label in one row whose value is null (absent when there are none); no grouping (null)
   * gives one row of totals per bucket, its value null.
   */
  usage(groupBy: UsageGroupBy | null, from: number, to: number, bucket?: UsageBucket | null): Promise<UsageRow[]>;
  /**
   * Per provider with entries in [from, to) (ms), by provider name: requests, errors, durations
   * and the last error. Read through the (provider, ts) and ts indexes: the rows of the window
   * only, never the whole table.
   */
  providerHealth(from: number, to: number): Promise<ProviderHealth[]>;
  /** Deletes the entries started before `ts` (ms); usage of whole hours stays answerable. Returns how many. */
  purgeBefore(ts: number): Promise<number>;
}

/**
 * One step of an implementation's schema history. Steps are applied at open, in order, each in
 * its own transaction with its row in the `schema_migrations (version, name, applied_at)`
 * table, so an operator sees with `sqlite3`/`psql` what ran when. A database at a version newer
 * than the code knows is refused.
 */
export interface Migration<Db> {
  version: number;
  name: string;
  up(db: Db): void | Promise<void>;
}

/** What an operator sets on an API key (PATCH changes any of them). */
export interface KeyFields {
  name: string;
  /** Label name -> value; they join the request's header labels. */
  labels: Record<string, string>;
  budget: KeyBudget | null;
  /** Null when none of rpm, tpm, concurrent is set. */
  rate_limit: KeyRateLimit | null;
  /** Exact model ids, virtual model ids, `<prefix>/*` or `*`; null: every model. */
  allowed_models: string[] | null;
  /** ms since the epoch; null: never. */
  expires_at: number | null;
  disabled: boolean;
  /** May call /admin/*. */
  admin: boolean;
}

/** A key as created: its fields, its id and the hex SHA-256 of its secret (never the secret). */
export interface NewKey extends KeyFields {
  id: string;
  secret_hash: string;
  /** ms since the epoch. */
  created_at: number;
}

export interface StoredKey extends NewKey {
  updated_at: number;
  /**
   * Raised on every create, update and delete, one store-wide sequence: changedSince() follows it.
   * Versions become visible in their order (writes of keys take turns), so a reader that saw
   * version n has seen every change up to n.
   */
  version: number;
  /** Deleted keys stay as tombstones, for changedSince(); every other read leaves them out. */
  deleted: boolean;
}

export interface KeysStore {
  /** Stores a new key; an id or secret hash stored already is an error. */
  create(key: NewKey): Promise<StoredKey>;
  /** A live (not deleted) key, or null. */
  get(id: string): Promise<StoredKey | null>;
  /** Every live key, oldest first. */
  list(): Promise<StoredKey[]>;
  /** Sets the given fields of a live key; null when there is none. */
  update(id: string, fields: Partial<KeyFields>, at: number): Promise<StoredKey | null>;
  /** Deletes a live key (it leaves a tombstone); false when there is none. */
  delete(id: string, at: number): Promise<boolean>;
  /** The live key whose secret hashes to `secretHash` (hex SHA-256), by an index: O(1) to the caller. */
  findByHash(secretHash: string): Promise<StoredKey | null>;
  /**
   * Keys created, changed or deleted after `version`, tombstones included, by ascending version,
   * at most `limit`: one indexed range read, cheap enough to poll several times a second.
   */
  changedSince(version: number, limit: number): Promise<StoredKey[]>;
}

export interface Store {
  readonly audit: AuditStore;
  readonly keys: KeysStore;
  /** The schema version the store's migrations brought the database to when it opened. */
  readonly schemaVersion: number;
  close(): Promise<void>;
}

/**
 * Which store to open, as plain data: it crosses to worker threads. Opening applies the
 * implementation's versioned migrations (and upgrades older layouts) before it resolves.
 */
export type StoreSpec =
  | { kind: 'sqlite'; /** The database file. */ file: string; /** Keep the bodies' word index (q without it scans). Default off. */ bodyIndex?: boolean }
  | { kind: 'postgres'; /** postgres://… (from the environment, e.g. DATABASE_URL). */ url: string; /** Default `public`. */ schema?: string };
