// Opens the Store a spec names, in the calling thread. The gateway calls it inside worker
// threads only (a synchronous driver must not run on the request loop; PostgreSQL's rows are
// parsed there too). Each driver is imported when its store is opened: a SQLite gateway never
// loads `pg` (about 3 MB of heap in each worker), a PostgreSQL one never loads better-sqlite3.
import type { Store, StoreSpec } from './store.js';

export async function openStore(spec: StoreSpec): Promise<Store> {
  switch (spec.kind) {
    case 'sqlite': {
      const { SqliteStore } = await import('./sqlite/sqlite-store.js');
      return new SqliteStore(spec.file, { bodyIndex: spec.bodyIndex ?? false });
    }
    case 'postgres': {
      const { PostgresStore } = await import('./postgres/postgres-store.js');
      return PostgresStore.open({ url: spec.url, ...(spec.schema !== undefined && { schema: spec.schema }) });
    }
  }
}
