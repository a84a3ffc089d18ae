// The budgets a request spends from, in their current periods: its key's own, and the one
// configured for each value of a label it carries.
import type { BudgetPeriod, KeyBudget, RequestContext } from '../../core/context.js';
import { labelValues } from '../limit-state/label-values.js';
import { parseDecimal, toPicos } from '../pricing/money.js';
import type { BudgetAccount } from './ledger.js';
import { periodBounds } from './period.js';

export function budgetAccounts(ctx: RequestContext, labelBudgets: ReadonlyArray<readonly [string, KeyBudget]>): BudgetAccount[] {
  const accounts: BudgetAccount[] = [];
  const principal = ctx.principal;
  if (principal?.budget) accounts.push(keyAccount(principal.id, principal.budget, ctx.startedAt));
  for (const [name, budget] of labelBudgets) {
    for (const value of labelValues(ctx.labels, name)) accounts.push(account(`label:${name}:${value}`, budget, ctx.startedAt));
  }
  return accounts;
}

/** A key's own budget, in the period holding `at`. */
export function keyAccount(id: string, budget: KeyBudget, at: number): BudgetAccount {
  return account(`key:${id}`, budget, at);
}

/** The counter of a scope's spend in the period holding `at`. */
export function accountName(scope: string, period: BudgetPeriod, periodStart: number): string {
  return `${scope}:${period}:${periodStart}`;
}

function account(scope: string, budget: KeyBudget, at: number): BudgetAccount {
  const { start, end } = periodBounds(budget.period, at);
  return { name: accountName(scope, budget.period, start), scope, limit: usdToPicos(budget.amount_usd), end };
}

/** Exact: the amount as the operator wrote it (0.1 is a tenth of a dollar, not the double nearest it). */
export function usdToPicos(usd: number): bigint {
  return toPicos(parseDecimal(usd));
}
