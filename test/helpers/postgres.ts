// A scratch schema on the local PostgreSQL per test run, so runs in parallel never meet, and
// nothing left behind once dropped.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The database tests use: SLUICE_TEST_DATABASE_URL, else the local one CI starts. */
export const TEST_DATABASE_URL = process.env['SLUICE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema name (not created: the store creates it). */
export function scratchSchema(): string {
  return `sluice_test_${randomBytes(6).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
