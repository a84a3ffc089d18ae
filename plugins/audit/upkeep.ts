// The store's own upkeep (AuditStore.maintain: the SQLite store rolls up the hours that are
// over), every minute on an unref'd timer. A failure is logged and the next run tries again;
// until then usage stays exact, only reading more raw rows.
import type { Logger } from '../../core/logger.js';
import { Periodic } from './periodic.js';
import type { AuditStore } from './store.js';

const EVERY_MS = 60_000;

export function storeUpkeep(store: AuditStore, logger: Pick<Logger, 'error'>): Periodic {
  return new Periodic(async (now) => {
    try {
      await store.maintain?.(now);
    } catch (err) {
      logger.error(`audit: store upkeep failed, tried again in a minute: ${(err as Error).message}`);
    }
  }, EVERY_MS);
}
