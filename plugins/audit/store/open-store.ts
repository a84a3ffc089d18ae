// Opens the Store a spec names, in the calling thread. The gateway calls it inside worker
// threads only (a synchronous driver must not run on the request loop; PostgreSQL's rows are
// parsed there too).
import type { Store, StoreSpec } from './store.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';

export function openStore(spec: StoreSpec): Promise<Store> {
  switch (spec.kind) {
    case 'sqlite':
      return Promise.resolve(new SqliteStore(spec.file, { bodyIndex: spec.bodyIndex ?? false }));
    case 'postgres':
      return PostgresStore.open({ url: spec.url, ...(spec.schema !== undefined && { schema: spec.schema }) });
  }
}
