// Routing: resolves the requested model id to a provider and model (404 model_not_found when
// nothing serves it), enforces a key's model allow-list, and serves GET /v1/models.
import type { RequestContext } from '../../core/context.js';
import { badRequest, forbidden, modelNotFound } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { sendJson } from '../../core/respond.js';
import { ORDER } from '../../core/stages.js';
import type { Model, ModelMetadata } from '../../core/types/models.js';
import { isModelAllowed } from './allowed-models.js';
import { Catalog, type RuntimePrice } from './catalog.js';
import { ModelResolver, type VirtualPlan } from './model-resolver.js';
import { ModelTable } from './model-table.js';
import { routerSchema } from './schema.js';
import type { RouterOptions } from './schema.js';

const NAME = 'router';

export interface ModelLookup {
  /** The catalog/discovered metadata of a model id, or null when nothing is known. */
  metadata(id: string): ModelMetadata | null;
  /** Whether a provider lists this model id (virtual models are not listed: they take their target's price). */
  isListed(id: string): boolean;
  /** Sets (null: removes) the operator's price of a model id, for the next call and /v1/models. */
  setPrice(id: string, price: RuntimePrice | null): void;
  /** A virtual model's targets and strategy (for failover); null for any other id. */
  plan(id: string): VirtualPlan | null;
  /** How many models each provider prefix lists (virtual models left out), as /v1/models serves them now. */
  countByProvider(): ReadonlyMap<string, number>;
}

declare module '../../core/plugin.js' {
  interface GatewayServices {
    models: ModelLookup;
  }
}

export default definePlugin<RouterOptions>({
  name: NAME,
  schema: routerSchema,
  setup(gw, options) {
    const catalog = Catalog.load(options.catalog, options.model_overrides as Record<string, ModelMetadata>);
    const table = new ModelTable(gw.providers, gw.logger, options.discovery, catalog);
    const resolver = new ModelResolver(gw.providers, table, options.virtual_models);
    table.onChange = () => resolver.rebuild();
    let firstList: Promise<void> = Promise.resolve();

    gw.lifecycle.ready.tap(NAME, () => {
      resolver.rebuild();
      // Not awaited: a provider that is slow or down must not hold the gateway back.
      firstList = table.start().then(() => {
        gw.describe('providers', describeCounts([...gw.providers].map((p) => p.name), table.list()));
        for (const id of resolver.unresolvedVirtual()) gw.logger.warn(`virtual model '${id}' points at a model no enabled provider serves`);
        for (const id of catalog.unusedOverrides(new Set(table.list().map((m) => m.id)))) gw.logger.warn(`model_overrides: '${id}' names no listed model`);
      });
    });
    gw.lifecycle.close.tap(NAME, () => table.close());
    // Metadata (prices) of a model id, for plugins that learn the model late (passthrough).
    gw.services.models = {
      metadata: (id: string) => resolver.resolve(id)?.metadata ?? null,
      isListed: (id: string) => table.get(id) !== undefined,
      setPrice: (id: string, price: RuntimePrice | null) => {
        catalog.setPrice(id, price);
        table.reenrich();
      },
      plan: (id: string) => resolver.plan(id),
      countByProvider: () => countByProvider(table.list()),
    };

    gw.stages.route.tap({ name: NAME, stage: ORDER.DEFAULT }, (ctx: RequestContext) => {
      // An earlier tap (passthrough: the provider is in the path) may have routed already.
      if (ctx.target !== null) return;
      const id = ctx.model;
      if (id === null) throw badRequest("'model' is required", 'model');
      const target = resolver.resolve(id);
      if (target === null) throw modelNotFound(id);
      if (!isModelAllowed(ctx.principal!.allowedModels, id)) throw forbidden(`this key may not use model '${id}'`, 'model_not_allowed');
      ctx.target = target;
    });

    const listModels = async (ctx: RequestContext): Promise<Model[]> => {
      const wait = options.discovery.first_list_wait_ms;
      await Promise.race([firstList, new Promise((r) => setTimeout(r, wait).unref())]);
      const allowed = ctx.principal!.allowedModels;
      const models = table.list().concat(resolver.virtualModels());
      return allowed === null ? models : models.filter((m) => isModelAllowed(allowed, m.id));
    };

    gw.addRoute({
      method: 'GET',
      path: '/v1/models',
      access: 'client',
      handler: async (ctx) => sendJson(ctx, 200, { object: 'list', data: await listModels(ctx) }),
    });
    gw.addRoute({
      method: 'GET',
      path: '/v1/models/*',
      access: 'client',
      handler: async (ctx) => {
        let id: string;
        try {
          id = decodeURIComponent(ctx.params['*']!);
        } catch {
          throw badRequest('malformed model id in the path', 'model');
        }
        const model = (await listModels(ctx)).find((m) => m.id === id);
        if (!model) throw modelNotFound(id);
        sendJson(ctx, 200, model);
      },
    });
  },
});

/** `openai (12 models), demo (2 models)`: the startup summary's providers. */
function describeCounts(providers: readonly string[], models: readonly Model[]): string {
  const counts = new Map<string, number>(providers.map((name) => [name, 0]));
  for (const [prefix, n] of countByProvider(models)) counts.set(prefix, n);
  return [...counts].map(([prefix, n]) => `${prefix} (${n} model${n === 1 ? '' : 's'})`).join(', ') || 'none';
}

/** Models per provider prefix (`<prefix>/<model>`). */
function countByProvider(models: readonly Model[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of models) {
    const prefix = m.id.slice(0, m.id.indexOf('/'));
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return counts;
}
