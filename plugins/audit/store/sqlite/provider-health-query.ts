// GET /admin/providers in SQLite: one grouped pass over the window's rows (the ts index bounds
// it), then per provider its p95 (the duration at its rank, an OFFSET into the window's
// successful answers) and its last error, both through the (provider, ts) index.
import type { Database, Statement } from 'better-sqlite3';
import { lastErrorOf, p95Rank, providerFailureSql, SUCCEEDED_SQL } from '../provider-health.js';
import type { ProviderHealth } from '../store.js';

const FAILED = providerFailureSql((name) => `json_extract(e.error, '$.${name}')`);
// Cache hits never reached the provider.
const WINDOW = 'e.ts >= ? AND e.ts < ? AND e.cache_hit = 0';

interface TotalsRow {
  provider: string;
  requests: number;
  errors: number;
  client_errors: number;
  avg_duration_ms: number | null;
  succeeded: number;
}

/** The statements, exported so a test can hold their query plans to the indexes. */
export const PROVIDER_HEALTH_SQL = {
  totals: `SELECT e.provider AS provider, count(*) AS requests, sum(${FAILED}) AS errors,
    sum(e.status BETWEEN 400 AND 499 AND NOT ${FAILED}) AS client_errors,
    avg(CASE WHEN ${SUCCEEDED_SQL} THEN e.duration_ms END) AS avg_duration_ms, sum(${SUCCEEDED_SQL}) AS succeeded
    FROM audit_entries e WHERE ${WINDOW} AND e.provider IS NOT NULL GROUP BY e.provider ORDER BY e.provider`,
  p95: `SELECT e.duration_ms FROM audit_entries e WHERE e.provider = ? AND ${WINDOW} AND ${SUCCEEDED_SQL} ORDER BY e.duration_ms LIMIT 1 OFFSET ?`,
  lastError: `SELECT e.ts, e.status, e.error FROM audit_entries e WHERE e.provider = ? AND ${WINDOW} AND ${FAILED} ORDER BY e.ts DESC, e.seq DESC LIMIT 1`,
};

export class ProviderHealthQuery {
  readonly #totals: Statement;
  readonly #p95: Statement;
  readonly #lastError: Statement;

  constructor(db: Database) {
    this.#totals = db.prepare(PROVIDER_HEALTH_SQL.totals);
    this.#p95 = db.prepare(PROVIDER_HEALTH_SQL.p95).pluck();
    this.#lastError = db.prepare(PROVIDER_HEALTH_SQL.lastError);
  }

  rows(from: number, to: number): ProviderHealth[] {
    return (this.#totals.all(from, to) as TotalsRow[]).map((t) => {
      const last = t.errors === 0 ? undefined : (this.#lastError.get(t.provider, from, to) as { ts: number; status: number; error: string | null } | undefined);
      return {
        provider: t.provider,
        requests: t.requests,
        errors: t.errors,
        client_errors: t.client_errors,
        avg_duration_ms: t.avg_duration_ms,
        p95_duration_ms: t.succeeded === 0 ? null : (this.#p95.get(t.provider, from, to, p95Rank(t.succeeded) - 1) as number),
        last_error: last === undefined ? null : lastErrorOf(last.ts, last.status, last.error),
      };
    });
  }
}
