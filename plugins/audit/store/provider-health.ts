// GET /admin/providers' figures, the same in both dialects: which entries are a provider's
// failures, which durations count, the rank of the p95, and the last error read from its row.
import type { ProviderLastError } from './store.js';

/**
 * SQL over `audit_entries e`: the entry is a failure of its provider (ProviderHealth.errors).
 * `member` reads a member of the error's JSON as text, in the dialect's own way.
 */
export function providerFailureSql(member: (name: string) => string): string {
  return `(e.status >= 500 OR (e.error IS NOT NULL AND (coalesce(${member('type')}, '') = 'provider_error' OR (e.status IN (401, 403, 429) AND ${member('provider')} IS NOT NULL))))`;
}

/** SQL: a successful answer whose duration counts in the average and the p95. */
export const SUCCEEDED_SQL = 'e.status < 400 AND e.error IS NULL AND e.duration_ms IS NOT NULL';

/** The 1-based rank of the nearest-rank 95th percentile among n values (PostgreSQL's percentile_disc). */
export function p95Rank(n: number): number {
  return Math.ceil(0.95 * n);
}

/**
 * `error` as its column gives it: JSON text (SQLite) or parsed (PostgreSQL's json). The status is
 * the error's own when there is one: a stream its provider broke was sent with 200.
 */
export function lastErrorOf(ts: number, status: number, error: unknown): ProviderLastError {
  const e = (typeof error === 'string' ? JSON.parse(error) : error) as { code?: string | null; message?: string; status?: number } | null;
  return { ts, status: e?.status ?? status, code: e?.code ?? null, message: e?.message ?? null };
}
