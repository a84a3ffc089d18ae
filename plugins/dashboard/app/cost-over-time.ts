// Cost over time from one GET /admin/usage call with `bucket` and no group_by: the API lists
// every bucket of the range, zeros included, each exact, so the points are drawn as they come.
import { api, query } from './api.js';
import type { BucketedUsageRow, List, UsageBucket } from './types.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
// Hours while the range spans at most this many (8 1/3 days: the default week and a little more),
// days beyond (up to the API's 1000 buckets: 2.7 years).
const MAX_HOURLY_POINTS = 200;

export interface CostPoint {
  /** The bucket's start, ms since the epoch. */
  time: number;
  costUsd: number;
}

export interface CostOverTime {
  bucket: UsageBucket;
  points: CostPoint[];
}

/** `fromIso` and `toIso` as the Usage screen sends them: an empty one is the API's default (30 days before, now). */
export async function costOverTime(fromIso: string, toIso: string): Promise<CostOverTime> {
  const to = toIso === '' ? Date.now() : Date.parse(toIso);
  const span = fromIso === '' ? 30 * DAY : to - Date.parse(fromIso);
  const bucket: UsageBucket = span <= MAX_HOURLY_POINTS * HOUR ? 'hour' : 'day';
  const rows = await api<List<BucketedUsageRow>>(`/admin/usage${query({ bucket, from: fromIso, to: toIso })}`);
  return { bucket, points: rows.data.map((row) => ({ time: Date.parse(row.bucket), costUsd: Number(row.cost_usd) })) };
}
