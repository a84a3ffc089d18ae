// The options budget and ratelimit share: where their counters live, what to do when that
// store is down, and how a request's tokens are estimated before the provider counts them.

export type OnStoreError = 'open' | 'closed';

export interface StoreOptions {
  /** null or empty: counters in this process's memory; otherwise shared by every replica through Redis. */
  redis_url: string | null;
  /** Prefix of every Redis key, so several gateways (or test runs) can share one Redis. */
  key_prefix: string;
  /** Redis unreachable: `open` admits requests unchecked, `closed` answers 503 `limits_unavailable`. */
  on_redis_error: OnStoreError;
}

export interface EstimateOptions {
  /** Prompt bytes per token in the estimate; small so the estimate errs high. */
  bytes_per_token: number;
  /** Output tokens reserved when neither the request nor the catalog gives a maximum. */
  default_max_output_tokens: number;
}

/** Schema properties of StoreOptions and EstimateOptions; `onError` is the plugin's default policy. */
export function sharedProperties(onError: OnStoreError): Record<string, object> {
  return {
    redis_url: { type: ['string', 'null'], default: null },
    key_prefix: { type: 'string', default: 'sluice:' },
    on_redis_error: { enum: ['open', 'closed'], default: onError },
    bytes_per_token: { type: 'number', exclusiveMinimum: 0, default: 3 },
    default_max_output_tokens: { type: 'integer', minimum: 0, default: 4096 },
  };
}

/** The Redis URL to use, or null for the memory backend (`${REDIS_URL}` left unset expands to ''). */
export function redisUrl(options: StoreOptions): string | null {
  return options.redis_url === null || options.redis_url.trim() === '' ? null : options.redis_url;
}
