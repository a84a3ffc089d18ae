// The shared store suite on the local PostgreSQL, in this thread and through the worker the
// gateway reads with; each fixture in a schema of its own, dropped afterwards.
import { expect } from 'chai';
import pg from 'pg';
import { dropSchema, scratchSchema, TEST_DATABASE_URL } from '../../../../test/helpers/postgres.js';
import { describeStore, expectedUsage, variedEntries } from '../store-suite.js';
import { syntheticEntry } from '../synthetic-entry.js';
import type { StoreFixture } from '../store-suite.js';
import type { Store } from '../store.js';
import { WorkerStore } from '../worker-store.js';
import { PostgresStore } from './postgres-store.js';
import { PROVIDER_HEALTH_SQL } from './provider-health-query.js';

function fixture(open: (url: string, schema: string) => Promise<Store>): StoreFixture {
  let schema: string | null = null;
  return {
    open() {
      schema ??= scratchSchema();
      return open(TEST_DATABASE_URL, schema);
    },
    async destroy() {
      if (schema !== null) await dropSchema(schema);
      schema = null;
    },
  };
}

describeStore('postgres', fixture((url, schema) => PostgresStore.open({ url, schema })));
describeStore('postgres through its worker', fixture((url, schema) => WorkerStore.open({ kind: 'postgres', url, schema })));

describe('PostgreSQL store: several gateways on one database', function () {
  this.timeout(60_000);
  const HOUR = 3_600_000;
  const T0 = Date.UTC(2026, 2, 2, 10, 17);
  let schema: string;
  let stores: PostgresStore[] = [];

  const open = async (count: number): Promise<PostgresStore[]> => {
    stores = await Promise.all(Array.from({ length: count }, () => PostgresStore.open({ url: TEST_DATABASE_URL, schema })));
    return stores;
  };

  beforeEach(() => {
    schema = scratchSchema();
  });
  afterEach(async () => {
    await Promise.all(stores.map((s) => s.close()));
    stores = [];
    await dropSchema(schema);
  });

  it('migrates a new schema once when three open it at the same moment', async () => {
    const opened = await open(3);
    expect(opened.map((s) => s.schemaVersion)).to.deep.equal([3, 3, 3]);
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT version, name FROM ${schema}.schema_migrations ORDER BY version`);
      expect(rows).to.deep.equal([
        { version: 1, name: 'audit entries, labels, body search, hourly usage rollups' },
        { version: 2, name: 'api keys' },
        { version: 3, name: 'cache hits in the usage rollups' },
      ]);
    } finally {
      await client.end();
    }
  });

  it('lists every entry two stores write at once, and adds their usage up', async () => {
    const [a, b] = await open(2);
    const entries = variedEntries(240);
    // Interleaved batches on the same hours and label cells, all in flight together.
    const batches = Array.from({ length: 24 }, (_, i) => entries.slice(i * 10, i * 10 + 10));
    await Promise.all(batches.map((batch, i) => (i % 2 === 0 ? a! : b!).audit.insert(batch)));
    const listed = (await a!.audit.query({}, null, 500)).data.map((e) => e.id);
    expect([...listed].sort()).to.deep.equal(entries.map((e) => e.id).sort());
    for (const groupBy of ['key', 'model', 'label:team', 'label:env'] as const) {
      expect(await b!.audit.usage(groupBy, T0 - HOUR, T0 + 100 * HOUR), groupBy).to.deep.equal(expectedUsage(entries, groupBy, T0 - HOUR, T0 + 100 * HOUR));
    }
  });

  it('keeps a NUL in a text field as U+FFFD, exact inside JSON, and accepts it in filters', async () => {
    const [store] = await open(1);
    const [e] = variedEntries(1);
    const entry = { ...e!, model: 'demo/a\u0000b', request_body: 'raw\u0000bytes', labels: { team: 'x\u0000y' }, request_headers: { 'x-note': 'n\u0000l' } };
    await store!.audit.insert([entry]);
    expect(await store!.audit.get(entry.id)).to.deep.equal({ ...entry, model: 'demo/a\uFFFDb', request_body: 'raw\uFFFDbytes' });
    expect((await store!.audit.query({ model: 'demo/a\u0000b', q: 'raw\u0000', labels: [{ name: 'team', value: 'x\u0000y' }] }, null, 10)).data.map((s) => s.id)).to.deep.equal([entry.id]);
    expect(await store!.audit.get('a\u0000b')).to.equal(null);
  });
});

describe('PostgreSQL store: provider health', function () {
  this.timeout(30_000);
  it('has an index plan for each statement: the window is read through audit_entries_ts, never a scan of the table', async () => {
    const schema = scratchSchema();
    const store = await PostgresStore.open({ url: TEST_DATABASE_URL, schema });
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
    await client.connect();
    try {
      // An empty table is cheapest to scan; the question is whether an index serves the query.
      await client.query('SET enable_seqscan = off');
      for (const sql of Object.values(PROVIDER_HEALTH_SQL)) {
        const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [0, 1])).rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan, sql).to.match(/Index Scan using audit_entries_ts on audit_entries e .*\n\s+Index Cond: \(\(ts >= '0'::bigint\) AND \(ts < '1'::bigint\)\)/);
        expect(plan, sql).not.to.include('Seq Scan');
      }
    } finally {
      await client.end();
      await store.close();
      await dropSchema(schema);
    }
  });
});

describe('PostgreSQL store: a schema of version 2 (before cache hits were rolled up)', function () {
  this.timeout(30_000);

  it('gains the rollup column at open; its old hours count no hits, new entries count theirs', async () => {
    const schema = scratchSchema();
    const hour = Date.UTC(2026, 2, 2, 10);
    const entry = (n: number) => syntheticEntry({ id: `0190${n}000-0000-7000-8000-00000000000${n}`, ts: hour + n * 1000, cache_hit: true });
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const before = await PostgresStore.open({ url: TEST_DATABASE_URL, schema });
      await before.audit.insert([entry(1)]);
      await before.close();
      // As the previous version left it: no column, no step 3.
      await client.query(`ALTER TABLE "${schema}".usage_rollup DROP COLUMN cache_hits; DELETE FROM "${schema}".schema_migrations WHERE version = 3`);
      const after = await PostgresStore.open({ url: TEST_DATABASE_URL, schema });
      try {
        expect(after.schemaVersion).to.equal(3);
        await after.audit.insert([entry(2)]);
        // Whole hour: from the rollup, where the entry stored before the column counts no hit.
        const [row] = await after.audit.usage(null, hour, hour + 3_600_000);
        expect([row!.requests, row!.cache_hits]).to.deep.equal([2, 1]);
      } finally {
        await after.close();
      }
    } finally {
      await client.end();
      await dropSchema(schema);
    }
  });
});

