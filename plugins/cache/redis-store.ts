// A cache shared by every replica: entries in Redis through keyv, under the configured prefix,
// as entryText writes them (what another replica, or another version, wrote is read with care).
// createKeyv sets the namespace on the store only (keyv and the store would otherwise both
// prefix a key: `ns::ns:k`). Keyv gets a client that fails a command at once while Redis is
// away (watched-redis.ts): keyv then answers a read with nothing and drops a write, so a call
// is a miss instead of waiting for Redis to come back.
import { createKeyv } from '@keyv/redis';
import type { Keyv, RedisClientType } from '@keyv/redis';
import type { Logger } from '../../core/logger.js';
import { WatchedRedis } from '../limit-state/watched-redis.js';
import { entryText, parseEntry } from './entry.js';
import type { Entry } from './entry.js';
import type { CacheStore } from './store.js';

export class RedisStore implements CacheStore {
  readonly #redis: WatchedRedis;
  readonly #keyv: Keyv<string>;

  constructor(url: string, prefix: string, logger: Logger) {
    this.#redis = new WatchedRedis(url, 'cache', 'calls are answered by the providers', logger);
    // createKeyv's signature names the client of the default type parameters; any node-redis client does.
    this.#keyv = createKeyv(this.#redis.client as unknown as RedisClientType, { namespace: prefix }) as Keyv<string>;
    this.#keyv.on('error', (err: unknown) => this.#redis.failed(err));
  }

  /** Connects, waiting at most the connect timeout; never rejects. */
  connect(): Promise<void> {
    return this.#redis.connect();
  }

  async get(key: string): Promise<Entry | undefined> {
    const text = await this.#keyv.get(key);
    return text === undefined ? undefined : (parseEntry(text) ?? undefined);
  }

  async set(key: string, entry: Entry, ttlMs: number): Promise<void> {
    await this.#keyv.set(key, entryText(entry), ttlMs);
  }

  close(): Promise<void> {
    return this.#redis.close();
  }
}
