// Memory mode keeps spend across restarts by reading it back from the audit store at start:
// each key's spend in its current day, week, month and in total (a key's period is only known
// when it calls), and each budgeted label's in its period. Only the store's usage() query is
// used, the one part of the audit store's contract every store implements.
import type { BudgetPeriod, KeyBudget } from '../../core/context.js';
import type { AuditStore, UsageGroupBy } from '../audit/index.js';
import { accountName } from './budget-accounts.js';
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
  for (const query of queries) {
    const { start, end } = periodBounds(query.period, now);
    for (const row of await store.usage(query.groupBy, start, now + 1)) {
      if (row.value !== null && row.cost_pico > 0n) ledger.add(accountName(query.scopePrefix + row.value, query.period, start), end, row.cost_pico);
    }
  }
}
