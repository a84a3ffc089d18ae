// What a rate-limit backend does (memory or Redis), and the admission rule both apply.
import { usedAt } from './sliding-window.js';
import type { WindowCounts } from './sliding-window.js';

/** One set of limits a request counts against (a key, or one value of a label); 0 is no limit. */
export interface RateScope {
  /** `key:<id>` or `label:<name>:<value>`. */
  id: string;
  rpm: number;
  tpm: number;
  concurrent: number;
}

/** A scope's counters as the request found them (before its own counts were added). */
export interface ScopeCounts {
  requests: WindowCounts;
  tokens: WindowCounts;
  inFlight: number;
}

export type Refusal = 'requests' | 'tokens' | 'concurrent';

export interface Admission {
  /** Index of the scope that refused the request, or -1 when it was admitted (counted everywhere). */
  refusedScope: number;
  refusal: Refusal | null;
  /** The window the request was counted in, and how far into it (ms). */
  window: number;
  elapsed: number;
  counts: ScopeCounts[];
}

export interface RateLimiter {
  /** Admits and counts the request in every scope, or counts it nowhere; null when the store is unreachable. */
  admit(scopes: readonly RateScope[], requestId: string, tokens: number): Admission | null | Promise<Admission | null>;
  /** Gives the concurrency slot back and corrects the window's tokens by `tokenDelta`. Never throws. */
  settle(scopes: readonly RateScope[], requestId: string, window: number, tokenDelta: number): void;
  close(): Promise<void>;
}

/**
 * Why a scope refuses one more request, or null. A request needs one request of room, and some
 * token room left (its estimate may exceed what is left: it is corrected once the usage is known).
 * The Redis script (redis-scripts.ts) applies the same rule.
 */
export function refusal(scope: RateScope, counts: ScopeCounts, elapsed: number): Refusal | null {
  if (scope.concurrent > 0 && counts.inFlight + 1 > scope.concurrent) return 'concurrent';
  if (scope.rpm > 0 && usedAt(counts.requests, elapsed) + 1 > scope.rpm) return 'requests';
  if (scope.tpm > 0 && usedAt(counts.tokens, elapsed) + 1 > scope.tpm) return 'tokens';
  return null;
}
