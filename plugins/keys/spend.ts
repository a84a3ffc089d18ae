// A key's spend for its budget's current period: from a budget service when one is registered,
// else the audit store's usage by key over the period. Periods are calendar periods in UTC
// (weeks start on Monday); `total` counts from the key's creation.
import type { BudgetPeriod, KeyBudget } from '../../core/context.js';
import { formatUsd } from '../pricing/money.js';
import type { AuditStore, StoredKey } from '../audit/store/store.js';

export interface KeySpend {
  amount_usd: string;
  period: BudgetPeriod;
  /** ISO 8601: where the period began. */
  from: string;
}

/** What a budget plugin may register to answer spend itself (reserved spend included, say). */
export interface KeySpendService {
  spendUsd(key: { id: string; budget: KeyBudget | null; created_at: number }, from: number): Promise<string>;
}

declare module '../../core/plugin.js' {
  interface GatewayServices {
    keySpend: KeySpendService;
  }
}

const DAY = 86_400_000;

/** ms since the epoch at which the period holding `now` began. */
export function periodStart(period: BudgetPeriod, now: number, createdAt: number): number {
  const d = new Date(now);
  switch (period) {
    case 'daily':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'weekly':
      // getUTCDay: Sunday 0 .. Saturday 6; Monday starts the week.
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY;
    case 'monthly':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'total':
      return createdAt;
  }
}

/** The spend of each key, in the order given: one usage query per distinct period start. */
export async function spendOf(keys: readonly StoredKey[], now: number, usage: AuditStore | undefined, service: KeySpendService | undefined): Promise<KeySpend[]> {
  const starts = keys.map((k) => periodStart(k.budget?.period ?? 'total', now, k.created_at));
  const amounts = service !== undefined ? await Promise.all(keys.map((k, i) => service.spendUsd(k, starts[i]!))) : await usageAmounts(keys, starts, now, usage);
  return keys.map((k, i) => ({ amount_usd: amounts[i]!, period: k.budget?.period ?? 'total', from: new Date(starts[i]!).toISOString() }));
}

async function usageAmounts(keys: readonly StoredKey[], starts: readonly number[], now: number, usage: AuditStore | undefined): Promise<string[]> {
  const byStart = new Map<number, Map<string | null, bigint>>();
  if (usage !== undefined) {
    for (const from of new Set(starts)) {
      const rows = await usage.usage('key', from, now + 1);
      byStart.set(from, new Map(rows.map((r) => [r.value, r.cost_pico])));
    }
  }
  return keys.map((k, i) => formatUsd(byStart.get(starts[i]!)?.get(k.id) ?? 0n));
}
