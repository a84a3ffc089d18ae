// Body search (`q`): a literal substring of the request or of the response body, ASCII letters
// folded. A pg_trgm GIN index on each body finds the candidates by ILIKE (SQLite narrows by an
// FTS5 word index); ILIKE folds more than ASCII (the Kelvin sign is a k), so LIKE over the body
// with only A-Z folded confirms them, a slow function run on the few candidates only. Without
// pg_trgm (not installed, and the role may not create it) the same test scans the rows:
// PostgreSQL's full-text search matches words, not substrings, so it could not give the same
// answers.
import type { PoolClient } from 'pg';
import { pgText } from './entry-columns.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A body column with ASCII letters, and only those, folded to lower case. */
function folded(column: string): string {
  return `translate(${column}, '${UPPER}', '${UPPER.toLowerCase()}')`;
}

/** The trigram indexes, in the caller's transaction; none when pg_trgm is not to be had. */
export async function createBodySearch(db: PoolClient): Promise<void> {
  // In `public`, not the store's schema: the extension is database-wide, and dropping a
  // schema that held it would take every store's indexes with it.
  await db.query('SAVEPOINT body_search');
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  } catch {
    await db.query('ROLLBACK TO SAVEPOINT body_search');
  }
  const { rows } = await db.query<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'");
  if (rows.length === 0) return;
  for (const column of ['request_body', 'response_body']) {
    await db.query(`CREATE INDEX audit_entries_${column}_trgm ON audit_entries USING gin (${column} ${rows[0]!.schema}.gin_trgm_ops)`);
  }
}

/** The WHERE clause for `q`, its pattern bound to parameter `$n`. */
export function bodyMatchClause(n: number): string {
  const matches = (column: string): string => `(${column} ILIKE $${n} AND ${folded(column)} LIKE $${n})`;
  return `(${matches('e.request_body')} OR ${matches('e.response_body')})`;
}

/** The LIKE pattern for a needle: folded and stored the same way, its `%`, `_` and `\` literal. */
export function bodyPattern(q: string): string {
  return `%${pgText(q).replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[\\%_]/g, '\\$&')}%`;
}
