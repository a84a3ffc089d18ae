// A Store whose database work runs in a worker thread (store-worker.ts): the request loop only
// posts a message and awaits the answer, so no read, search or purge ever stalls it.
import type { AuditEntry } from '../audit-entry.js';
import { WorkerRpc } from '../worker-rpc.js';
import type { AuditFilter, AuditPage, AuditStore, KeyFields, KeysStore, NewKey, ProviderHealth, Store, StoreSpec, StoredKey, UsageBucket, UsageGroupBy, UsageRow } from './store.js';

export class WorkerStore implements Store {
  readonly audit: AuditStore;
  readonly keys: KeysStore;
  readonly schemaVersion: number;
  readonly #rpc: WorkerRpc;

  private constructor(rpc: WorkerRpc, schemaVersion: number) {
    this.#rpc = rpc;
    this.schemaVersion = schemaVersion;
    this.audit = {
      insert: (entries: readonly AuditEntry[]) => rpc.call<void>('insert', entries),
      get: (id: string) => rpc.call<AuditEntry | null>('get', id),
      query: (filter: AuditFilter, cursor: string | null, limit: number) => rpc.call<AuditPage>('query', filter, cursor, limit),
      usage: (groupBy: UsageGroupBy | null, from: number, to: number, bucket: UsageBucket | null = null) => rpc.call<UsageRow[]>('usage', groupBy, from, to, bucket),
      providerHealth: (from: number, to: number) => rpc.call<ProviderHealth[]>('providerHealth', from, to),
      purgeBefore: (ts: number) => rpc.call<number>('purgeBefore', ts),
    };
    // The worker tells the parts apart by the method's prefix.
    this.keys = {
      create: (key: NewKey) => rpc.call<StoredKey>('keys.create', key),
      get: (id: string) => rpc.call<StoredKey | null>('keys.get', id),
      list: () => rpc.call<StoredKey[]>('keys.list'),
      update: (id: string, fields: Partial<KeyFields>, at: number) => rpc.call<StoredKey | null>('keys.update', id, fields, at),
      delete: (id: string, at: number) => rpc.call<boolean>('keys.delete', id, at),
      findByHash: (secretHash: string) => rpc.call<StoredKey | null>('keys.findByHash', secretHash),
      changedSince: (version: number, limit: number) => rpc.call<StoredKey[]>('keys.changedSince', version, limit),
    };
  }

  /** Starts the worker and opens the store there (migrations included). */
  static async open(spec: StoreSpec): Promise<WorkerStore> {
    const rpc = new WorkerRpc(import.meta.url, './store-worker', spec);
    try {
      return new WorkerStore(rpc, await rpc.call<number>('open'));
    } catch (err) {
      await rpc.worker.terminate();
      throw err;
    }
  }

  /** The store's parts with a worker that starts at their first call (most gateways never read their audit log). */
  static lazy(spec: StoreSpec): LazyStore {
    let opened: Promise<WorkerStore> | null = null;
    // A failed open is forgotten, so a later call tries again (the database was down a moment).
    const store = (): Promise<WorkerStore> =>
      (opened ??= WorkerStore.open(spec).catch((err: unknown) => {
        opened = null;
        throw err;
      }));
    return {
      audit: deferred(async () => (await store()).audit, ['insert', 'get', 'query', 'usage', 'providerHealth', 'purgeBefore']),
      keys: deferred(async () => (await store()).keys, ['create', 'get', 'list', 'update', 'delete', 'findByHash', 'changedSince']),
      close: async () => {
        if (opened !== null) await (await opened.catch(() => null))?.close();
      },
    };
  }

  async close(): Promise<void> {
    await this.#rpc.close().catch(() => undefined);
  }
}

export interface LazyStore extends Pick<Store, 'audit' | 'keys'> {
  close(): Promise<void>;
}

/** `methods` of the part `get` resolves to, each awaiting it first. */
function deferred<T extends object>(get: () => Promise<T>, methods: ReadonlyArray<keyof T & string>): T {
  return Object.fromEntries(methods.map((m) => [m, async (...args: unknown[]) => ((await get())[m] as (...a: unknown[]) => unknown)(...args)])) as T;
}
