// What a cache backend offers: serialized entries under a key, each with its own lifetime.
export interface CacheStore {
  get(key: string): Promise<string | undefined>;
  /** Stores `value` for `ttlMs`; a backend may decline (too large) without error. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}
