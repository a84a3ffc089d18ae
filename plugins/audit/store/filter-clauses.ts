// The admin filters that test one column of audit_entries, as SQL both dialects take: `?` marks
// each value (the PostgreSQL store numbers them). Labels and `q` differ by dialect and stay there.
import type { AuditFilter } from './store.js';

export interface PageSql {
  sql: string;
  params: unknown[];
}

export interface Clause {
  sql: string;
  values: unknown[];
}

/** `order` is the alias whose (ts, seq) drives the page: `e`, or the first label's. */
export function columnClauses(filter: AuditFilter, order: string): Clause[] {
  const clauses: Clause[] = [];
  const add = (sql: string, ...values: unknown[]): void => void clauses.push({ sql, values });
  if (filter.model !== undefined) add('e.usage_model = ?', filter.model);
  if (filter.provider !== undefined) add('e.provider = ?', filter.provider);
  if (filter.key !== undefined) add('e.key_id = ?', filter.key);
  if (filter.status !== undefined) add('e.status BETWEEN ? AND ?', filter.status[0], filter.status[1]);
  if (filter.from !== undefined) add(`${order}.ts >= ?`, filter.from);
  if (filter.to !== undefined) add(`${order}.ts < ?`, filter.to);
  return clauses;
}
