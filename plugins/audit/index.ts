// The audit log: one entry per model request (who, what, which provider, tokens, exact cost,
// full bodies with credentials redacted), with hourly usage rollups and the operator endpoints.
//   capture/  what the log stage keeps of a request, and the entry it becomes
//   writer/   hands entries to a worker thread that journals them and stores them in batches
//   store/    the storage interface, its shared suite, the SQLite and PostgreSQL implementations
//   routes/   GET /admin/audit, /admin/audit/{id}, /admin/usage, and /admin/providers: each
//             provider's health from the log (why here: routes/providers.ts)
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';
import { capture } from './capture/capture.js';
import type { CapturedEntry } from './capture/capture.js';
import { materialize } from './capture/materialize.js';
import { Retention } from './retention.js';
import { registerProvidersRoute } from './routes/providers.js';
import { registerAuditRoutes } from './routes/routes.js';
import { auditSchema } from './schema.js';
import type { AuditOptions } from './schema.js';
import type { AuditStore, Store } from './store/store.js';
import { storeSpecOf } from './store/store-options.js';
import { WorkerStore } from './store/worker-store.js';
import { AuditWriter } from './writer/audit-writer.js';

export type { AuditEntry, AuditSummary } from './audit-entry.js';
export type { AuditFilter, AuditPage, AuditStore, KeyFields, KeysStore, NewKey, ProviderHealth, Store, StoredKey, StoreSpec, UsageGroupBy, UsageRow } from './store/store.js';

const NAME = 'audit';

declare module '../../core/plugin.js' {
  interface GatewayServices {
    /** Audit entries and usage, for plugins that read them (the audit plugin writes). */
    auditStore: AuditStore;
    /** The store the audit plugin opens, every part (keys serve the keys plugin); its worker starts at the first call. */
    store: Pick<Store, 'audit' | 'keys'>;
  }
}

export default definePlugin<AuditOptions>({
  name: NAME,
  dependsOn: ['pricing'],
  schema: auditSchema,
  async setup(gw, options) {
    const spec = storeSpecOf(options.store, options.body_index, gw.dataDir, gw.loaded.env);
    const captureOptions = { trustProxy: options.trust_proxy };
    const materializeOptions = { maxBodyBytes: options.max_body_bytes };
    // The writer's worker opens the store first: it applies the migrations.
    const writer = await AuditWriter.start<CapturedEntry>({
      spec,
      dir: gw.dataDir,
      materialize: (c) => materialize(c, materializeOptions),
      batchSize: options.batch_size,
      flushIntervalMs: options.flush_interval_ms,
      maxQueue: options.max_queue,
      logger: gw.logger,
    });
    const reader = WorkerStore.lazy(spec);
    const retention = new Retention(writer, options.retention_days, gw.logger);
    gw.services.auditStore = reader.audit;
    gw.services.store = reader;
    // Never the URL: it may hold a password.
    gw.describe('store', spec.kind === 'sqlite' ? `sqlite ${spec.file}` : `postgres, schema ${spec.schema ?? 'public'}`);

    // First among log taps: a later tap that throws ends the stage, and the entry must exist
    // whatever else fails. Sync: capturing references has nothing to await.
    gw.stages.log.tap({ name: NAME, stage: ORDER.FIRST }, (ctx: RequestContext) => {
      writer.push(capture(ctx, captureOptions));
    });

    registerAuditRoutes(gw, { store: reader.audit, beforeRead: () => writer.flush(), pending: (id) => writer.pending(id) });
    registerProvidersRoute(gw, { store: reader.audit, beforeRead: () => writer.flush() });

    gw.lifecycle.ready.tapPromise(NAME, async () => {
      retention.start();
      // Only a gateway that serves metrics loads prom-client (the metrics plugin sets up before ready).
      if (gw.services.metrics !== undefined) (await import('./writer/prometheus.js')).registerAuditMetrics();
    });
    gw.lifecycle.close.tapPromise(NAME, async () => {
      await retention.stop();
      await writer.close();
      await reader.close();
    });
  },
});
