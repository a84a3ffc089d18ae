// Options of the ratelimit plugin (docs/rate-limits.md).
import { sharedProperties } from '../limit-state/options.js';
import type { EstimateOptions, StoreOptions } from '../limit-state/options.js';

export interface LimitValues {
  rpm?: number | null;
  tpm?: number | null;
  concurrent?: number | null;
}

export interface RateLimitOptions extends StoreOptions, EstimateOptions {
  /** Limits that every value of a label gets (e.g. each `user` at 60 rpm). */
  labels: Record<string, LimitValues>;
  /** A concurrency slot whose request never gave it back (its replica died) is freed after this. */
  concurrent_lease_ms: number;
}

const limit = { type: ['integer', 'null'], minimum: 1 };

export const rateLimitSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...sharedProperties('open'),
    labels: {
      type: 'object',
      default: {},
      additionalProperties: { type: 'object', additionalProperties: false, properties: { rpm: limit, tpm: limit, concurrent: limit } },
    },
    concurrent_lease_ms: { type: 'integer', minimum: 1000, default: 600_000 },
  },
};
