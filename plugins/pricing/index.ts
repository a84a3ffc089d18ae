// The price stage: the exact cost of each call from its usage and the answering model's
// pricing, into ctx.cost (read by the audit log, budgets and metrics). A cache hit costs
// nothing and says what it saved; a call whose usage is unknown is priced null, never 0.
// The operator's prices set through the admin API (price-routes.ts) reach the stage as the
// target's pricing: the router applies them to its model table, so the stage itself never
// looks them up.
import type { CostResult, RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import type { Usage } from '../../core/types/usage.js';
import { calculateCost } from './calculate.js';
import type { Cost } from './calculate.js';
import { JournalPriceStore, type PriceChange } from './override-store.js';
import { registerPriceRoutes, sourceOf } from './price-routes.js';
import { pricingCheck } from './pricing-schema.js';

const NAME = 'pricing';

/** The Cost as stored and shown: bigint picodollars become a decimal string (JSON has no bigint). */
export function toCostResult(cost: Cost, source: string = cost.source): CostResult {
  // Built field by field: an object rest/spread copy costs several microseconds per call here.
  const result: CostResult = { total_usd: cost.total_usd, source, pico_usd: cost.pico_usd === null ? null : picoText(cost.pico_usd), lines: cost.lines };
  if (cost.unknown_reason !== undefined) result['unknown_reason'] = cost.unknown_reason;
  if (cost.tier !== undefined) result['tier'] = cost.tier;
  if (cost.window !== undefined) result['window'] = cost.window;
  if (cost.service_tier !== undefined) result['service_tier'] = cost.service_tier;
  if (cost.computed_usd !== undefined) result['computed_usd'] = cost.computed_usd;
  if (cost.notes !== undefined) result['notes'] = cost.notes;
  return result;
}

const MAX_SAFE_PICOS = BigInt(Number.MAX_SAFE_INTEGER);

// BigInt's toString costs about twice String(number); below 2^53 the number is exact, so the digits are the same.
function picoText(picos: bigint): string {
  return picos <= MAX_SAFE_PICOS && picos >= -MAX_SAFE_PICOS ? String(Number(picos)) : picos.toString();
}

const NO_CHARGE: CostResult = Object.freeze({ total_usd: '0', source: 'no_charge', pico_usd: '0', lines: [] });

export function priceCall(ctx: RequestContext): CostResult | null {
  if (ctx.target === null) return null;
  const usage = ctx.usage;
  // A hit called no provider, so it costs 0 even when the stored answer had no usage (a server
  // that reports none): only what it saved is unknown then.
  if (ctx.cacheHit) return { total_usd: '0', source: 'cache', pico_usd: '0', lines: [], saved_usd: usage === null ? null : costOf(ctx, usage).total_usd };
  if (usage === null) {
    if (ctx.partial) return { total_usd: null, source: 'partial', pico_usd: null, unknown_reason: 'the stream was cut before the provider reported usage', lines: [] };
    // The provider answered with an error (or was never reached): it charges nothing. A call
    // that ended without usage for any other reason is unknown.
    const failed = ctx.error !== null && ctx.status !== 499 && ctx.attempts.every((a) => a.status >= 400 && a.status !== 499);
    return failed ? NO_CHARGE : { total_usd: null, source: 'unknown', pico_usd: null, unknown_reason: 'the provider reported no usage for this call', lines: [] };
  }
  const cost = costOf(ctx, usage);
  // A cut stream: the cost of the tokens reported before the cut, a lower bound.
  return toCostResult(cost, ctx.partial ? 'partial' : cost.source);
}

/** The usage at the answering target's price. */
function costOf(ctx: RequestContext, usage: Usage): Cost {
  return calculateCost(usage, ctx.target!.metadata?.pricing, { at: ctx.startedAt, serviceTier: usage.service_tier ?? requestedServiceTier(ctx) });
}

/** The tier the client asked for, which prices the call when the answer names none. */
export function requestedServiceTier(ctx: RequestContext): string | undefined {
  const tier = ctx.body?.['service_tier'];
  return typeof tier === 'string' ? tier : undefined;
}

export default definePlugin({
  name: NAME,
  setup(gw) {
    gw.stages.price.tap(NAME, (ctx: RequestContext) => {
      ctx.cost = priceCall(ctx);
    });
    // Without the router no model is listed, so there is no price to override.
    const models = gw.services.models;
    if (models === undefined) return;
    const store = new JournalPriceStore(gw.dataDir);
    const overrides = new Map<string, PriceChange>();
    registerPriceRoutes(gw, { models, store, check: pricingCheck(), overrides });
    gw.lifecycle.ready.tapPromise(NAME, async () => {
      for (const change of await store.load()) {
        overrides.set(change.model, change);
        models.setPrice(change.model, { pricing: change.pricing!, source: sourceOf(change) });
      }
    });
  },
});
