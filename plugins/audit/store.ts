// Where audit entries live. SQLite implements it today (sqlite-store.ts); a PostgreSQL store
// will implement the same contract, so everything dialect-specific stays behind it. Methods
// may return promises; callers always await them.
import type { AuditEntry, AuditSummary } from './entry.js';
import type { StorableEntry } from './entry-record.js';

/** `key`, `model`, `provider` or `label:<name>`. */
export type UsageGroupBy = 'key' | 'model' | 'provider' | `label:${string}`;

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
  /** Every label must match (AND). */
  labels?: readonly LabelFilter[];
  /** Inclusive status range: [200, 200], [400, 499], [400, 599] for any error. */
  status?: readonly [number, number];
  /** ms since the epoch, inclusive. */
  from?: number;
  /** ms since the epoch, exclusive. */
  to?: number;
  /** Substring of the request or response body. */
  q?: string;
}

export interface AuditPage {
  /** Newest first. */
  data: AuditSummary[];
  /** Opaque; null on the last page. */
  next_cursor: string | null;
}

export interface UsageRow {
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
}

export interface InsertOptions {
  /**
   * Some entries may be stored already (a spill file re-ingested after a crash, a batch retried
   * after an error): an entry whose id is stored, or repeated in the batch, is skipped and not
   * counted again. Checking costs a lookup per entry, so the writer asks for it only then.
   */
  mayBeStored?: boolean;
}

export interface AuditStore {
  /**
   * Stores a batch atomically, rollups included. Takes the writer's records (entry-record.ts:
   * columns, one detail JSON, bodies as bytes) or whole entries (asRecord() turns one into the
   * other). The entries are taken to be new unless `mayBeStored` says otherwise. Once it has
   * returned (or resolved), the store must not read an encoded record's bytes again: the writer
   * hands them back to be written over (record-slab.ts).
   */
  insert(entries: readonly StorableEntry[], options?: InsertOptions): void | Promise<void>;
  get(id: string): AuditEntry | null | Promise<AuditEntry | null>;
  /** One page, newest first; a cursor not made by this store is a 400 (GatewayError, param cursor). */
  query(filter: AuditFilter, cursor: string | null, limit: number): AuditPage | Promise<AuditPage>;
  /** Exact totals over [from, to) (ms), sorted by cost then requests, descending. */
  usage(groupBy: UsageGroupBy, from: number, to: number): UsageRow[] | Promise<UsageRow[]>;
  /** Deletes raw entries (and their labels) started before `ts`; rollups stay. Returns how many. */
  purgeBefore(ts: number): number | Promise<number>;
  /** Periodic upkeep, if the store needs any (SQLite rolls up finished hours); called every minute. */
  maintain?(now: number): void | Promise<void>;
  close(): void | Promise<void>;
}

declare module '../../core/plugin.js' {
  interface GatewayServices {
    auditStore: AuditStore;
  }
}
