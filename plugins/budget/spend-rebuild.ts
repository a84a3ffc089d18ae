// Spend read back from the audit store. Memory mode keeps spend across restarts so, at start:
// each key's spend in its current day, week, month and in total (a key's period is only known
// when it calls), and each budgeted label's in its period. Either mode seeds a key's counter when
// its budget is new (seedKeys). Only the store's usage() query is used, the one part of the audit
// store's contract every store implements.
import type { BudgetPeriod, KeyBudget } from '../../core/context.js';
import type { AuditStore, UsageGroupBy } from '../audit/index.js';
import { accountName, keyAccount } from './budget-accounts.js';
import type { BudgetedKey } from '../keys/index.js';
import type { Ledger, Seed } from './ledger.js';
import type { MemoryLedger } from './memory-ledger.js';
import { periodBounds } from './period.js';

const PERIODS: readonly BudgetPeriod[] = ['daily', 'weekly', 'monthly', 'total'];

interface SpendQuery {
  groupBy: UsageGroupBy;
  /** The scope of a row's value: `key:<id>`, `label:<name>:<value>`. */
  scopePrefix: string;
  period: BudgetPeriod;
}

export async function rebuildSpend(ledger: MemoryLedger, store: AuditStore, labelBudgets: ReadonlyArray<readonly [string, KeyBudget]>, now: number): Promise<void> {
  const queries: SpendQuery[] = PERIODS.map((period) => ({ groupBy: 'key', scopePrefix: 'key:', period }));
  for (const [name, budget] of labelBudgets) queries.push({ groupBy: `label:${name}`, scopePrefix: `label:${name}:`, period: budget.period });
  const seeds: Seed[] = [];
  for (const query of queries) {
    const { start, end } = periodBounds(query.period, now);
    for (const row of await store.usage(query.groupBy, start, now + 1)) {
      if (row.value !== null && row.cost_pico > 0n) seeds.push([{ name: accountName(query.scopePrefix + row.value, query.period, start), end }, row.cost_pico]);
    }
  }
  ledger.seed(seeds);
}

/**
 * Keys whose budget is new to this replica (set on a key that had spent already, or moved to
 * another period) spend from a counter that has not been counting: each is raised to what the
 * audit store says the key spent in its period, so the budget holds from the key's next call.
 */
export async function seedKeys(ledger: Ledger, store: AuditStore, keys: readonly BudgetedKey[], now: number): Promise<void> {
  const seeds: Seed[] = [];
  for (const period of new Set(keys.map((k) => k.budget.period))) {
    const { start } = periodBounds(period, now);
    const spent = new Map((await store.usage('key', start, now + 1)).map((row) => [row.value, row.cost_pico]));
    for (const key of keys) {
      const amount = key.budget.period === period ? (spent.get(key.id) ?? 0n) : 0n;
      if (amount > 0n) seeds.push([keyAccount(key.id, key.budget, now), amount]);
    }
  }
  await ledger.seed(seeds);
}
