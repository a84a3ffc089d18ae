// Cost over time from GET /admin/usage, which has no time buckets: the range is cut into
// SLICES equal slices and each is asked for on its own (exact, since usage is exact for any
// window). A `bucket` parameter on /admin/usage would make this one call.
import { api, query } from './api.js';
import type { List, UsageRow } from './types.js';

const SLICES = 24;

export interface CostPoint {
  /** The slice's start, ms since the epoch. */
  time: number;
  costUsd: number;
}

export async function costOverTime(fromIso: string, toIso: string): Promise<CostPoint[]> {
  const to = toIso === '' ? Date.now() : Date.parse(toIso);
  const from = Date.parse(fromIso);
  const step = Math.max(1, Math.ceil((to - from) / SLICES));
  const starts = Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);
  return Promise.all(
    starts.map(async (start) => {
      const end = Math.min(start + step, to);
      const rows = await api<List<UsageRow>>(`/admin/usage${query({ group_by: 'provider', from: new Date(start).toISOString(), to: new Date(end).toISOString() })}`);
      return { time: start, costUsd: rows.data.reduce((sum, row) => sum + Number(row.cost_usd), 0) };
    }),
  );
}
