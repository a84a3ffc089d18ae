// Body search (`q`): a literal substring of the request or of the response body, ASCII letters
// folded, confirmed by LIKE on each body. A pg_trgm GIN index over the folded bodies finds the
// candidates, as SQLite's trigram FTS5 does. Without pg_trgm (the extension is not installed
// and the role may not create it) the same LIKE scans the rows: PostgreSQL's full-text search
// matches words, not substrings, so it could not give the same answers.
import type { PoolClient } from 'pg';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A body column with ASCII letters folded to lower case; index and query use the same text. */
function folded(column: string): string {
  return `translate(${column}, '${UPPER}', '${UPPER.toLowerCase()}')`;
}

/** The trigram indexes, in the caller's transaction; false when pg_trgm is not to be had. */
export async function createBodySearch(db: PoolClient): Promise<boolean> {
  // In `public`, not the store's schema: the extension is database-wide, and dropping a
  // schema that held it would take every store's indexes with it.
  await db.query('SAVEPOINT body_search');
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  } catch {
    await db.query('ROLLBACK TO SAVEPOINT body_search');
  }
  const { rows } = await db.query<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'");
  if (rows.length === 0) return false;
  for (const column of ['request_body', 'response_body']) {
    await db.query(`CREATE INDEX audit_entries_${column}_trgm ON audit_entries USING gin ((${folded(column)}) ${rows[0]!.schema}.gin_trgm_ops)`);
  }
  return true;
}

/** The WHERE clause for `q`, its pattern bound to parameter `$n`. */
export function bodyMatchClause(n: number): string {
  return `(${folded('e.request_body')} LIKE $${n} OR ${folded('e.response_body')} LIKE $${n})`;
}

/** The LIKE pattern for a needle: folded and stored the same way, its `%`, `_` and `\` literal. */
export function bodyPattern(q: string): string {
  const needle = q.replace(/[A-Z]/g, (c) => c.toLowerCase()).replaceAll('\u0000', '\uFFFD');
  return `%${needle.replace(/[\\%_]/g, '\\$&')}%`;
}
