// The operator's prices at runtime: GET|PUT|DELETE /admin/prices/{model} (the id's slash raw or
// %2F-encoded, as /v1/models/{id}) and GET /admin/prices (every override in force). A PUT body is
// a price in the catalog's shape; it is written to the store first, then applied to the model
// table, so the next call is priced with it and a restart keeps it. Admin access only.
import type { RequestContext } from '../../core/context.js';
import { parseJsonObject, readBody } from '../../core/body.js';
import { badRequest, GatewayError, modelNotFound } from '../../core/errors.js';
import type { Gateway } from '../../core/plugin.js';
import { refuseQuery } from '../../core/query.js';
import { sendJson } from '../../core/respond.js';
import type { ModelLookup } from '../router/index.js';
import type { PriceChange, PriceOverrideStore } from './override-store.js';
import type { PricingCheck } from './pricing-schema.js';

export interface PriceRoutesOptions {
  models: ModelLookup;
  store: PriceOverrideStore;
  check: PricingCheck;
  /** Overrides in force, by model id (filled from the store at boot). */
  overrides: Map<string, PriceChange>;
}

export function registerPriceRoutes(gw: Gateway, options: PriceRoutesOptions): void {
  const { models, store, check, overrides } = options;
  const bodyLimit = gw.loaded.config.server.body_limit_bytes;

  const view = (id: string): Record<string, unknown> => {
    const metadata = models.metadata(id);
    return { model: id, pricing: metadata?.pricing ?? null, pricing_sources: metadata?.pricing_sources ?? null, override: overrides.get(id) ?? null };
  };

  const change = async (ctx: RequestContext, id: string, pricing: PriceChange['pricing']): Promise<void> => {
    const record: PriceChange = { model: id, pricing, updated_by: ctx.principal!.id, updated_at: new Date().toISOString() };
    await store.record(record);
    if (pricing === null) overrides.delete(id);
    else overrides.set(id, record);
    models.setPrice(id, pricing === null ? null : { pricing, source: sourceOf(record) });
  };

  gw.addRoute({
    method: 'GET',
    path: '/admin/prices',
    access: 'admin',
    handler: async (ctx) => {
      refuseQuery(ctx);
      sendJson(ctx, 200, { object: 'list', data: [...overrides.values()] });
    },
  });
  /** A route on one model: the handler gets the listed model's id and answers with its view. */
  const modelRoute = (method: string, handle: (ctx: RequestContext, id: string) => Promise<void>): void =>
    gw.addRoute({
      method,
      path: '/admin/prices/*',
      access: 'admin',
      handler: async (ctx) => {
        refuseQuery(ctx);
        const id = listedModel(ctx, models);
        await handle(ctx, id);
        sendJson(ctx, 200, view(id));
      },
    });

  modelRoute('GET', async () => {});
  modelRoute('PUT', async (ctx, id) => {
    const raw = readBody(ctx.req, bodyLimit);
    await change(ctx, id, check(parseJsonObject(raw instanceof Promise ? await raw : raw)));
  });
  modelRoute('DELETE', async (ctx, id) => {
    if (!overrides.has(id)) {
      throw new GatewayError({ status: 404, type: 'not_found_error', code: 'price_override_not_found', message: `model '${id}' has no price override`, param: 'model' });
    }
    await change(ctx, id, null);
  });
}

/** What /v1/models shows as the price's source while an override is in force. */
export function sourceOf(change: PriceChange): Record<string, unknown> {
  return { override: true, updated_by: change.updated_by, updated_at: change.updated_at, note: 'set by the operator through /admin/prices' };
}

/** The model id of the path; only a model a provider lists can carry a price. */
function listedModel(ctx: RequestContext, models: ModelLookup): string {
  let id: string;
  try {
    id = decodeURIComponent(ctx.params['*']!);
  } catch {
    throw badRequest('malformed model id in the path', 'model');
  }
  if (!models.isListed(id)) throw modelNotFound(id);
  return id;
}
