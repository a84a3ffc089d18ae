// The worker thread behind WorkerStore: opens the store the spec names and runs its calls.
import { workerData } from 'node:worker_threads';
import { serveRequests } from '../worker-rpc.js';
import { openStore } from './open-store.js';
import type { AuditStore, Store, StoreSpec } from './store.js';

let store: Store | null = null;

serveRequests(async (method, args) => {
  if (method === 'open') {
    store = await openStore(workerData as StoreSpec);
    return store.schemaVersion;
  }
  if (store === null) throw new Error('the store is not open');
  if (method === 'close') {
    await store.close();
    return undefined;
  }
  const call = store.audit[method as keyof AuditStore] as (...a: unknown[]) => Promise<unknown>;
  return call.apply(store.audit, args);
});
