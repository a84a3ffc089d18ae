// One pooled connection for a piece of work, and one transaction on it.
import type { Pool, PoolClient } from 'pg';

/** Runs `work` on a connection of `pool`; one that failed is closed rather than pooled again. */
export async function withClient<T>(pool: Pool, work: (db: PoolClient) => Promise<T>): Promise<T> {
  const db = await pool.connect();
  // A connection lost while checked out also fails the query in flight, which reports it;
  // unheard, the event would end the thread.
  const ignore = (): void => undefined;
  db.on('error', ignore);
  try {
    const result = await work(db);
    db.off('error', ignore);
    db.release();
    return result;
  } catch (err) {
    db.off('error', ignore);
    // After a failed transaction the connection may be broken too.
    db.release(true);
    throw err;
  }
}

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
