// Budgets per key and per label value that concurrency cannot overshoot: before a call is
// forwarded, its most expensive outcome is reserved against every budget it spends from, and
// it is admitted only while each still has money left; the log stage settles the true cost
// (nothing for a failure, a cache hit or a client that left before the provider answered; at
// least the reservation for a stream cut after it began). Spend is kept in memory (rebuilt
// from the audit store at start) or, shared by every replica, in Redis. docs/budgets.md.
import type { RequestContext } from '../../core/context.js';
import { forbidden, rateLimited, unavailable } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import type { Target } from '../../core/provider.js';
import { ORDER } from '../../core/stages.js';
import { redisConnection } from '../limit-state/redis-option.js';
import { formatUsd } from '../pricing/money.js';
import { budgetAccounts } from './budget-accounts.js';
import { KeySeeds } from './key-seeds.js';
import { estimateCost } from './cost-estimate.js';
import type { BudgetAccount, Ledger } from './ledger.js';
import { MemoryLedger } from './memory-ledger.js';
import { RedisLedger } from './redis-ledger.js';
import { budgetSchema } from './schema.js';
import type { BudgetOptions } from './schema.js';
import { rebuildSpend, seedKeys } from './spend-rebuild.js';

const NAME = 'budget';
// A total budget never resets: its refusal still says when to try again (the contract promises
// retry-after on every budget 429), a day, since only an operator raising it helps.
const TOTAL_RETRY_AFTER_S = 86_400;

declare module '../../core/context.js' {
  interface ContextLocals {
    budget?: { accounts: BudgetAccount[]; reserved: bigint };
  }
}

export default definePlugin<BudgetOptions>({
  name: NAME,
  dependsOn: ['pricing'],
  schema: budgetSchema,
  async setup(gw, options) {
    const redis = await redisConnection(gw, NAME, options);
    const memory = redis === null ? new MemoryLedger() : null;
    const ledger: Ledger = memory ?? new RedisLedger(redis!, options.key_prefix);
    const labelBudgets = Object.entries(options.labels);

    gw.lifecycle.ready.tapPromise(NAME, async () => {
      const store = gw.services.auditStore;
      if (store === undefined) {
        if (memory !== null) gw.logger.warn('no audit store (the audit plugin is off): spend from before this start is not counted');
        return;
      }
      if (memory !== null) await rebuildSpend(memory, store, labelBudgets, Date.now());
      // A key's budget set or moved to another period starts from what the key spent in it (every plugin is set up by now).
      const seeds = new KeySeeds(
        (keys) => seedKeys(ledger, store, keys, Date.now()),
        (err) => gw.logger.warn(`budget: cannot seed the spend of keys whose budget changed yet (tried again every few seconds): ${err instanceof Error ? err.message : String(err)}`),
      );
      gw.services.keyBudgets?.onNewBudgets((keys) => seeds.add(keys));
      gw.lifecycle.close.tap(NAME, () => seeds.close());
    });

    /** A virtual model's targets, which failover may move on to; none for any other model. */
    const fallbacks = (ctx: RequestContext): Target[] => {
      const plan = ctx.target === null ? null : (gw.services.models?.plan(ctx.target.id) ?? null);
      return plan === null ? [] : plan.targets.map((t) => t.target);
    };

    function decide(ctx: RequestContext, accounts: BudgetAccount[], reserved: bigint, exhausted: number | null): void {
      if (exhausted === null) {
        if (options.on_redis_error === 'closed') throw unavailable('budgets cannot be checked right now', 'limits_unavailable');
        return;
      }
      if (exhausted !== -1) {
        const spent = accounts[exhausted]!;
        const retryAfter = spent.end === null ? TOTAL_RETRY_AFTER_S : (spent.end - Date.now()) / 1000;
        throw rateLimited(`the budget of $${formatUsd(spent.limit)} for ${spent.scope} is spent for this period`, retryAfter, 'budget_exceeded');
      }
      ctx.locals.budget = { accounts, reserved };
    }

    function check(ctx: RequestContext): Promise<void> | undefined {
      const accounts = budgetAccounts(ctx, labelBudgets);
      if (accounts.length === 0) return undefined;
      let estimate = estimateCost(ctx, options, fallbacks(ctx));
      if (estimate === null) {
        if (options.unknown_price === 'refuse') throw forbidden(`model '${ctx.model ?? ''}' has no known price, and a budget applies to this call`, 'model_not_priced');
        estimate = 0n;
      }
      const exhausted = ledger.reserve(accounts, estimate);
      if (exhausted instanceof Promise) return exhausted.then((e) => decide(ctx, accounts, estimate, e));
      decide(ctx, accounts, estimate, exhausted);
      return undefined;
    }

    // After the rate limits: a request they refuse reserves nothing.
    if (redis === null) gw.stages.limit.tap({ name: NAME, stage: ORDER.LATE }, check);
    else gw.stages.limit.tapPromise({ name: NAME, stage: ORDER.LATE }, async (ctx: RequestContext) => check(ctx));

    gw.stages.log.tap(NAME, (ctx: RequestContext) => {
      const held = ctx.locals.budget;
      if (held !== undefined) ledger.settle(held.accounts, chargedCost(ctx, held.reserved) - held.reserved);
    });
    gw.lifecycle.close.tapPromise(NAME, () => ledger.close());
  },
});

/**
 * What the call spends: the price stage's cost (nothing for a failure or a cache hit, nothing
 * known when a client left before the provider answered). A stream cut after it began spends at
 * least its reservation: the provider bills the tokens it generated until the cut, and the usage
 * it reports comes at the end, if at all before the cut.
 */
function chargedCost(ctx: RequestContext, reserved: bigint): bigint {
  const picos = ctx.cost?.['pico_usd'];
  const priced = typeof picos === 'string' ? BigInt(picos) : 0n;
  return ctx.partial && priced < reserved ? reserved : priced;
}
