// One page of GET /admin/audit as SQL: each filter narrows through its (column, ts, seq) index,
// a label filter through audit_labels (the first label's rows, in time order, drive the page;
// the planner would otherwise join every labelled row and sort), `q` through the bodies'
// trigram indexes (body-search.ts), and the cursor resumes strictly after the last row shown.
import type { CursorPosition } from '../cursor.js';
import { columnClauses } from '../filter-clauses.js';
import type { PageSql } from '../filter-clauses.js';
import type { AuditFilter } from '../store.js';
import { bodyMatchClause, bodyPattern } from './body-search.js';
import { pgText, SUMMARY_COLUMNS } from './entry-columns.js';

export function pageSql(filter: AuditFilter, before: CursorPosition | null, limit: number): PageSql {
  const where: string[] = [];
  const params: unknown[] = [];
  /** Adds a clause whose `?` marks are the next parameters, in order. */
  const add = (clause: string, ...values: unknown[]): void => {
    where.push(clause.replace(/\?/g, () => `$${params.push(pgText(values.shift()))}`));
  };
  const [first, ...others] = filter.labels ?? [];
  const order = first !== undefined ? 'l' : 'e';
  if (first !== undefined) add('l.name = ? AND l.value = ?', first.name, first.value);
  for (const label of others) {
    add('EXISTS (SELECT 1 FROM audit_labels o WHERE o.name = ? AND o.value = ? AND o.ts = e.ts AND o.seq = e.seq)', label.name, label.value);
  }
  for (const c of columnClauses(filter, order)) add(c.sql, ...c.values);
  if (filter.q !== undefined) {
    params.push(bodyPattern(filter.q));
    where.push(bodyMatchClause(params.length));
  }
  if (before !== null) add(`(${order}.ts, ${order}.seq) < (?, ?)`, before.ts, before.seq);
  params.push(limit);
  const columns = SUMMARY_COLUMNS.split(', ').map((c) => `e.${c}`).join(', ');
  return {
    sql: `SELECT e.seq, ${columns} FROM ${first !== undefined ? 'audit_labels l JOIN audit_entries e ON e.seq = l.seq' : 'audit_entries e'}
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order}.ts DESC, ${order}.seq DESC LIMIT $${params.length}`,
    params,
  };
}
