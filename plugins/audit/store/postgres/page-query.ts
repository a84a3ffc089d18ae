// One page of GET /admin/audit as SQL: each filter narrows through its (column, ts, seq) index,
// a label filter through audit_labels, `q` through the bodies' trigram indexes (body-search.ts),
// and the cursor resumes strictly after the last row shown.
import type { CursorPosition } from '../cursor.js';
import type { AuditFilter } from '../store.js';
import { bodyMatchClause, bodyPattern } from './body-search.js';
import { SUMMARY_COLUMNS } from './entry-columns.js';

export interface PageSql {
  sql: string;
  params: unknown[];
}

export function pageSql(filter: AuditFilter, before: CursorPosition | null, limit: number): PageSql {
  const where: string[] = [];
  const params: unknown[] = [];
  /** Adds a clause whose `?` marks are the next parameters, in order. */
  const add = (clause: string, ...values: unknown[]): void => {
    where.push(clause.replace(/\?/g, () => `$${params.push(values.shift())}`));
  };
  for (const label of filter.labels ?? []) {
    add('EXISTS (SELECT 1 FROM audit_labels l WHERE l.name = ? AND l.value = ? AND l.ts = e.ts AND l.seq = e.seq)', label.name, label.value);
  }
  if (filter.model !== undefined) add('e.usage_model = ?', filter.model);
  if (filter.provider !== undefined) add('e.provider = ?', filter.provider);
  if (filter.key !== undefined) add('e.key_id = ?', filter.key);
  if (filter.status !== undefined) add('e.status BETWEEN ? AND ?', filter.status[0], filter.status[1]);
  if (filter.from !== undefined) add('e.ts >= ?', filter.from);
  if (filter.to !== undefined) add('e.ts < ?', filter.to);
  if (filter.q !== undefined) {
    params.push(bodyPattern(filter.q));
    where.push(bodyMatchClause(params.length));
  }
  if (before !== null) add('(e.ts, e.seq) < (?, ?)', before.ts, before.seq);
  params.push(limit);
  const columns = SUMMARY_COLUMNS.split(', ').map((c) => `e.${c}`).join(', ');
  return {
    sql: `SELECT e.seq, ${columns} FROM audit_entries e ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY e.ts DESC, e.seq DESC LIMIT $${params.length}`,
    params,
  };
}
