// A scratch schema on the local PostgreSQL per test run, so runs in parallel never meet, and
// nothing left behind once dropped.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PluginEntry } from '../../core/config.js';

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

/** SLUICE_TEST_STORE=postgres: the gateways tests start keep their audit log in PostgreSQL. */
export const AUDIT_ON_POSTGRES = process.env['SLUICE_TEST_STORE'] === 'postgres';

// One schema per data directory, so a test that restarts a gateway on its directory finds its
// entries again; all dropped when the run ends.
const schemaOfDir = new Map<string, string>();
if (AUDIT_ON_POSTGRES) after(() => Promise.all([...schemaOfDir.values()].map(dropSchema)));

/** The plugin list with the audit plugin's store, unless a test chose one, set to this data directory's scratch schema. */
export function auditOnPostgres(plugins: ReadonlyArray<string | PluginEntry>, dataDir: string): Array<string | PluginEntry> {
  let schema = schemaOfDir.get(dataDir);
  if (schema === undefined) schemaOfDir.set(dataDir, (schema = scratchSchema()));
  const store = { type: 'postgres', url: TEST_DATABASE_URL, schema };
  return plugins.map((p) => {
    if (p === 'audit') return { name: 'audit', options: { store } };
    if (typeof p === 'object' && p.name === 'audit' && (p.options as { store?: unknown } | undefined)?.store === undefined) return { ...p, options: { ...(p.options as object | undefined), store } };
    return p;
  });
}
