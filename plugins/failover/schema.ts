export interface FailoverOptions {
  retry: {
    /** Extra tries of one target after its first (0: move on to the next target at once). */
    max_retries: number;
    /** First backoff; each retry doubles it up to backoff_max_ms, and full jitter draws below it. */
    backoff_base_ms: number;
    backoff_max_ms: number;
    /** A provider's retry-after up to this is waited; a longer one moves on to the next target. */
    retry_after_cap_ms: number;
  };
  breaker: {
    /** Consecutive failed calls that take a target out. */
    failure_threshold: number;
    /** How long it stays out before one call probes it. */
    cooldown_ms: number;
  };
}

export const failoverSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    retry: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        max_retries: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
        backoff_base_ms: { type: 'integer', minimum: 0, default: 200 },
        backoff_max_ms: { type: 'integer', minimum: 0, default: 2000 },
        retry_after_cap_ms: { type: 'integer', minimum: 0, default: 5000 },
      },
    },
    breaker: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        failure_threshold: { type: 'integer', minimum: 1, default: 5 },
        cooldown_ms: { type: 'integer', minimum: 1, default: 30000 },
      },
    },
  },
} as const;
