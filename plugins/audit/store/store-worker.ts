// The worker thread behind WorkerStore: opens the store the spec names and runs its calls.
import { workerData } from 'node:worker_threads';
import { serveRequests } from '../worker-rpc.js';
import { openStore } from './open-store.js';
import type { Store, StoreSpec } from './store.js';

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
  // `keys.<name>` for the keys part, a bare name for the audit part.
  const dot = method.indexOf('.');
  const part = (dot === -1 ? store.audit : store.keys) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  return part[method.slice(dot + 1)]!.apply(part, args);
});
