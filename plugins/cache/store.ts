// What a cache backend offers: entries under a key, each with its own lifetime.
import type { Entry } from './entry.js';

export interface CacheStore {
  get(key: string): Promise<Entry | undefined>;
  /** Stores `entry` for `ttlMs`; a backend may decline (too large) without error. */
  set(key: string, entry: Entry, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
