// Budget periods in UTC: a day from midnight, a week from Monday, a month from the 1st, or the
// whole life of the key. Spend is counted per period start, so a new period starts at zero.
import type { BudgetPeriod } from '../../core/context.js';

const DAY_MS = 86_400_000;

export interface PeriodBounds {
  start: number;
  /** When the next period starts; null for `total`, which never resets. */
  end: number | null;
}

export function periodBounds(period: BudgetPeriod, now: number): PeriodBounds {
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  switch (period) {
    case 'daily':
      return { start: day, end: day + DAY_MS };
    case 'weekly': {
      // 1970-01-01 was a Thursday: days since the last Monday.
      const start = day - ((Math.floor(day / DAY_MS) + 3) % 7) * DAY_MS;
      return { start, end: start + 7 * DAY_MS };
    }
    case 'monthly': {
      const d = new Date(now);
      return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
    }
    case 'total':
      return { start: 0, end: null };
  }
}
