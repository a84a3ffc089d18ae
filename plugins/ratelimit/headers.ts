// OpenAI's x-ratelimit-* headers from an admission: the limit, what is left after this request,
// and when the sliding window is whole again, each of the scope with the least room left.
// And the retry-after of a refusal: when the refusing limit has room for one more request.
import type { Admission, RateScope, ScopeCounts } from './limiter.js';
import { msUntil, usedAt } from './sliding-window.js';
import type { WindowCounts } from './sliding-window.js';

type Kind = 'requests' | 'tokens';

export function rateLimitHeaders(scopes: readonly RateScope[], admission: Admission, tokens: number): Array<[string, string]> {
  const admitted = admission.refusedScope === -1;
  return [...headersOf('requests', scopes, admission, admitted ? 1 : 0), ...headersOf('tokens', scopes, admission, admitted ? tokens : 0)];
}

/** Seconds until the refused request would be admitted. */
export function retryAfterSeconds(scope: RateScope, counts: ScopeCounts, admission: Admission): number {
  if (admission.refusal === 'requests') return msUntil(counts.requests, admission.elapsed, scope.rpm - 1) / 1000;
  if (admission.refusal === 'tokens') return msUntil(counts.tokens, admission.elapsed, scope.tpm - 1) / 1000;
  // A concurrency slot frees when some request ends: soon, but nobody knows when.
  return 1;
}

function headersOf(kind: Kind, scopes: readonly RateScope[], admission: Admission, added: number): Array<[string, string]> {
  let best: { limit: number; remaining: number; counts: WindowCounts } | null = null;
  for (let i = 0; i < scopes.length; i++) {
    const limit = kind === 'requests' ? scopes[i]!.rpm : scopes[i]!.tpm;
    if (limit === 0) continue;
    const counts = admission.counts[i]![kind];
    const remaining = Math.max(0, Math.floor(limit - usedAt(counts, admission.elapsed) - added));
    if (best === null || remaining < best.remaining) best = { limit, remaining, counts: { prev: counts.prev, curr: counts.curr + added } };
  }
  if (best === null) return [];
  return [
    [`x-ratelimit-limit-${kind}`, String(best.limit)],
    [`x-ratelimit-remaining-${kind}`, String(best.remaining)],
    [`x-ratelimit-reset-${kind}`, duration(msUntil(best.counts, admission.elapsed, 0))],
  ];
}

/** OpenAI's duration text: `250ms`, `1.5s`, `1m30s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = String(Math.round((ms % 60_000) / 10) / 100);
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}
