// The audit log: one entry per model request (who, what, which provider, tokens, exact cost,
// full bodies with credentials redacted), written in batches off the request path to a store
// (SQLite and segment files in the data directory), with hourly usage rollups and the operator
// endpoints.
import { join } from 'node:path';
import type { RequestContext } from '../../core/context.js';
import type { Logger } from '../../core/logger.js';
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';
import { recordOf, toEntry } from './entry.js';
import { encodeRecord, releaseRecords } from './segment-record.js';
import type { CapturedEntry } from './entry.js';
import { Retention } from './retention.js';
import { registerAuditRoutes } from './routes.js';
import { auditSchema } from './schema.js';
import { storeUpkeep } from './upkeep.js';
import type { AuditOptions } from './schema.js';
import { SpillFile } from './spill.js';
import { SqliteAuditStore } from './sqlite-store.js';
import { AuditWriter } from './writer.js';

export type { AuditEntry, AuditSummary } from './entry.js';
export type { AuditFilter, AuditPage, AuditStore, UsageGroupBy, UsageRow } from './store.js';

const NAME = 'audit';
export const DB_FILE = 'sluice.db';

/** The store as the plugin opens it (the write benchmark opens it the same way). */
export function openAuditStore(dataDir: string, logger: Pick<Logger, 'warn'>): SqliteAuditStore {
  return new SqliteAuditStore(join(dataDir, DB_FILE), {
    checkpointWorker: true,
    onBackgroundError: (message) => logger.warn(`audit: ${message}`),
  });
}

export default definePlugin<AuditOptions>({
  name: NAME,
  dependsOn: ['pricing'],
  schema: auditSchema,
  setup(gw, options) {
    const store = openAuditStore(gw.dataDir, gw.logger);
    const capture = { trustProxy: options.trust_proxy };
    const serialize = { maxBodyBytes: options.max_body_bytes };
    const writer = new AuditWriter<CapturedEntry>({
      store,
      spill: new SpillFile(gw.dataDir),
      materialize: (c) => encodeRecord(recordOf(c, serialize)),
      release: releaseRecords,
      batchSize: options.batch_size,
      flushIntervalMs: options.flush_interval_ms,
      maxQueue: options.max_queue,
      logger: gw.logger,
    });
    const retention = new Retention(store, options.retention_days, gw.logger);
    const upkeep = storeUpkeep(store, gw.logger);
    gw.services.auditStore = store;
    gw.describe('store', `sqlite ${join(gw.dataDir, DB_FILE)}`);

    // First among log taps: a later tap that throws ends the stage, and the record must
    // exist whatever else fails. Sync: capturing references has nothing to await.
    gw.stages.log.tap({ name: NAME, stage: ORDER.FIRST }, (ctx: RequestContext) => {
      writer.push(toEntry(ctx, capture));
    });

    registerAuditRoutes(gw, { store, beforeRead: () => writer.flush() });

    gw.lifecycle.ready.tap(NAME, () => {
      writer.start();
      retention.start();
      upkeep.start();
    });
    gw.lifecycle.close.tapPromise(NAME, async () => {
      await upkeep.stop();
      await retention.stop();
      await writer.close();
      await store.close();
    });
  },
});
