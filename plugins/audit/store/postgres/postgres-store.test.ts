// The shared store suite on the local PostgreSQL, in this thread and through the worker the
// gateway reads with; each fixture in a schema of its own, dropped afterwards.
import { dropSchema, scratchSchema, TEST_DATABASE_URL } from '../../../../test/helpers/postgres.js';
import { describeStore } from '../store-suite.js';
import type { StoreFixture } from '../store-suite.js';
import type { Store } from '../store.js';
import { WorkerStore } from '../worker-store.js';
import { PostgresStore } from './postgres-store.js';

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
