// The audit plugin's options, checked once at boot (ajv applies the defaults).
import { storeOptionsSchema } from './store/store-options.js';
import type { StoreOptions } from './store/store-options.js';

export interface AuditOptions {
  /** Take the client address from `x-forwarded-for` (only behind a proxy you run). */
  trust_proxy: boolean;
  /** Raw entries older than this are purged hourly; 0 keeps them forever. Rollups are kept. */
  retention_days: number;
  /** Bodies longer than this many bytes are cut (and flagged); null records them whole. */
  max_body_bytes: number | null;
  /** Entries held in memory before new ones wait in the journal on disk only. */
  max_queue: number;
  /**
   * A queue this long is written at once instead of waiting for the timer; also the most
   * entries one transaction takes (the writer sizes them to a few milliseconds below that).
   */
  batch_size: number;
  flush_interval_ms: number;
  /** Keep a word index of the bodies for `q`; without it a search scans every body in its time range. */
  body_index: boolean;
  store: StoreOptions;
}

export const auditSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    trust_proxy: { type: 'boolean', default: false },
    retention_days: { type: 'integer', minimum: 0, default: 30 },
    max_body_bytes: { type: ['integer', 'null'], minimum: 0, default: null },
    max_queue: { type: 'integer', minimum: 1, default: 50_000 },
    batch_size: { type: 'integer', minimum: 1, maximum: 10_000, default: 1000 },
    flush_interval_ms: { type: 'integer', minimum: 1, maximum: 60_000, default: 100 },
    body_index: { type: 'boolean', default: false },
    store: storeOptionsSchema,
  },
} as const;
