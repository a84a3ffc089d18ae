// One page of GET /admin/audit as SQL: each filter narrows through its index, a label filter
// through audit_labels (whose key is in time order, so it can drive the page), and `q` through
// the word index of the bodies (body-search.ts), with LIKE confirming each candidate.
import type { AuditFilter } from '../store.js';
import type { CursorPosition } from '../cursor.js';
import { columnClauses } from '../filter-clauses.js';
import type { PageSql } from '../filter-clauses.js';
import { likePattern } from './body-search.js';
import { SUMMARY_COLUMNS } from './entry-columns.js';

/** `candidates`: the FTS5 query narrowing q (body-search.ts), '' for none. */
export function pageSql(filter: AuditFilter, before: CursorPosition | null, limit: number, candidates = ''): PageSql {
  const joins: string[] = [];
  const where: string[] = [];
  const params: unknown[] = [];
  (filter.labels ?? []).forEach((label, i) => {
    joins.push(`JOIN audit_labels l${i} ON l${i}.name = ? AND l${i}.value = ? AND l${i}.ts = e.ts AND l${i}.seq = e.seq`);
    params.push(label.name, label.value);
  });
  // Ordered by the first label's key when there is one, so SQLite can walk it newest first.
  const order = joins.length > 0 ? 'l0' : 'e';
  const add = (clause: string, ...values: unknown[]): void => {
    where.push(clause);
    params.push(...values);
  };
  for (const c of columnClauses(filter, order)) add(c.sql, ...c.values);
  if (filter.q !== undefined) {
    if (candidates !== '') add('e.seq IN (SELECT rowid FROM audit_bodies WHERE audit_bodies MATCH ?)', candidates);
    const like = likePattern(filter.q);
    add("(e.request_body LIKE ? ESCAPE '\\' OR e.response_body LIKE ? ESCAPE '\\')", like, like);
  }
  if (before !== null) add(`(${order}.ts < ? OR (${order}.ts = ? AND ${order}.seq < ?))`, before.ts, before.ts, before.seq);
  params.push(limit);
  const columns = SUMMARY_COLUMNS.split(', ').map((c) => `e.${c}`).join(', ');
  return {
    sql: `SELECT e.seq, ${columns} FROM audit_entries e ${joins.join(' ')} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order}.ts DESC, ${order}.seq DESC LIMIT ?`,
    params,
  };
}
