// One transaction on one pooled connection.
import type { PoolClient } from 'pg';

/** Runs `work` between `begin` and COMMIT; rolls back and rethrows when it throws. */
export async function inTransaction<T>(db: PoolClient, work: () => Promise<T>, begin = 'BEGIN'): Promise<T> {
  await db.query(begin);
  try {
    const result = await work();
    await db.query('COMMIT');
    return result;
  } catch (err) {
    // A connection that broke cannot roll back either; the error that broke it is the news.
    await db.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
