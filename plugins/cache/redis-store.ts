// A cache shared by every replica: entries in Redis through keyv, under the configured prefix,
// as entryText writes them (what another replica, or another version, wrote is read with care).
// createKeyv sets the namespace on the store only (keyv and the store would otherwise both
// prefix a key: `ns::ns:k`).
import { createKeyv } from '@keyv/redis';
import type { Keyv } from '@keyv/redis';
import { entryText, parseEntry } from './entry.js';
import type { Entry } from './entry.js';
import type { CacheStore } from './store.js';

export class RedisStore implements CacheStore {
  readonly #keyv: Keyv<string>;

  constructor(url: string, prefix: string, onError: (err: unknown) => void) {
    this.#keyv = createKeyv(url, { namespace: prefix }) as Keyv<string>;
    this.#keyv.on('error', onError);
  }

  async get(key: string): Promise<Entry | undefined> {
    const text = await this.#keyv.get(key);
    return text === undefined ? undefined : (parseEntry(text) ?? undefined);
  }

  async set(key: string, entry: Entry, ttlMs: number): Promise<void> {
    await this.#keyv.set(key, entryText(entry), ttlMs);
  }

  async close(): Promise<void> {
    await this.#keyv.disconnect();
  }
}
