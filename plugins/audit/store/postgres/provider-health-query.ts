// GET /admin/providers in PostgreSQL: one grouped pass over the window's rows (the (ts, seq)
// index bounds it) with the p95 as percentile_disc, and each provider's last error from the
// same range, newest first. The caller runs both in one snapshot.
import type { PoolClient } from 'pg';
import { lastErrorOf, providerFailureSql, SUCCEEDED_SQL } from '../provider-health.js';
import type { ProviderHealth } from '../store.js';

const FAILED = providerFailureSql((name) => `(e.error ->> '${name}')`);
// Cache hits never reached the provider.
const WINDOW = 'e.ts >= $1 AND e.ts < $2 AND NOT e.cache_hit AND e.provider IS NOT NULL';

/** The statements, exported so a test can hold their query plans to the indexes. */
export const PROVIDER_HEALTH_SQL = {
  totals: `SELECT e.provider, count(*) AS requests, count(*) FILTER (WHERE ${FAILED}) AS errors,
    count(*) FILTER (WHERE e.status BETWEEN 400 AND 499 AND NOT ${FAILED}) AS client_errors,
    avg(e.duration_ms) FILTER (WHERE ${SUCCEEDED_SQL}) AS avg_duration_ms,
    percentile_disc(0.95) WITHIN GROUP (ORDER BY e.duration_ms) FILTER (WHERE ${SUCCEEDED_SQL}) AS p95_duration_ms
    FROM audit_entries e WHERE ${WINDOW} GROUP BY e.provider ORDER BY e.provider`,
  lastErrors: `SELECT DISTINCT ON (e.provider) e.provider, e.ts, e.status, e.error FROM audit_entries e
    WHERE ${WINDOW} AND ${FAILED} ORDER BY e.provider, e.ts DESC, e.seq DESC`,
};

interface TotalsRow {
  provider: string;
  requests: string;
  errors: string;
  client_errors: string;
  avg_duration_ms: number | null;
  p95_duration_ms: number | null;
}

export async function providerHealthRows(db: PoolClient, from: number, to: number): Promise<ProviderHealth[]> {
  const totals = (await db.query<TotalsRow>(PROVIDER_HEALTH_SQL.totals, [from, to])).rows;
  const lastErrors = new Map(
    (await db.query<{ provider: string; ts: string; status: number; error: unknown }>(PROVIDER_HEALTH_SQL.lastErrors, [from, to])).rows.map((r) => [r.provider, lastErrorOf(Number(r.ts), r.status, r.error)]),
  );
  return totals.map((t) => ({
    provider: t.provider,
    requests: Number(t.requests),
    errors: Number(t.errors),
    client_errors: Number(t.client_errors),
    avg_duration_ms: t.avg_duration_ms,
    p95_duration_ms: t.p95_duration_ms,
    last_error: lastErrors.get(t.provider) ?? null,
  }));
}
