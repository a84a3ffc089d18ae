// GET /admin/usage's answer: the store's rows as the contract writes them (cost as a decimal
// string, times as ISO 8601). Totals per bucket (a bucket without group_by) list every bucket of
// the window, zeros included, so a chart draws them as they come.
import { formatUsd } from '../../pricing/money.js';
import type { UsageRow } from '../store/store.js';
import { bucketStarts } from '../store/usage-buckets.js';
import type { UsageQuery } from './params.js';

export function usageView(query: UsageQuery, rows: readonly UsageRow[]): Record<string, unknown> {
  const bucketed = query.bucket !== null;
  const listed = bucketed && query.groupBy === null ? everyBucket(rows, query) : rows;
  return {
    object: 'list',
    group_by: query.groupBy,
    ...(bucketed && { bucket: query.bucket }),
    from: new Date(query.from).toISOString(),
    to: new Date(query.to).toISOString(),
    data: listed.map((r) => ({
      ...(bucketed && { bucket: new Date(r.bucket).toISOString() }),
      value: r.value,
      requests: r.requests,
      input_tokens: r.input_tokens,
      output_tokens: r.output_tokens,
      total_tokens: r.total_tokens,
      cost_usd: formatUsd(r.cost_pico),
      unpriced_requests: r.unpriced_requests,
      cache_hits: r.cache_hits,
    })),
  };
}

/** One row per bucket: the store's (one at most, without a grouping), else zeros. */
function everyBucket(rows: readonly UsageRow[], query: UsageQuery): UsageRow[] {
  const byBucket = new Map(rows.map((r) => [r.bucket, r]));
  return bucketStarts(query.bucket, query.from, query.to).map(
    (bucket) => byBucket.get(bucket) ?? { bucket, value: null, requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_pico: 0n, unpriced_requests: 0, cache_hits: 0 },
  );
}
