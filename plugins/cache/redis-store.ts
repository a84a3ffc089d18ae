// A cache shared by every replica: entries in Redis through keyv, under the configured prefix.
// createKeyv sets the namespace on the store only (keyv and the store would otherwise both
// prefix a key: `ns::ns:k`).
import { createKeyv } from '@keyv/redis';
import type { Keyv } from '@keyv/redis';
import type { CacheStore } from './store.js';

export class RedisStore implements CacheStore {
  readonly #keyv: Keyv<string>;

  constructor(url: string, prefix: string, onError: (err: unknown) => void) {
    this.#keyv = createKeyv(url, { namespace: prefix }) as Keyv<string>;
    this.#keyv.on('error', onError);
  }

  async get(key: string): Promise<string | undefined> {
    return await this.#keyv.get(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#keyv.set(key, value, ttlMs);
  }

  async close(): Promise<void> {
    await this.#keyv.disconnect();
  }
}
