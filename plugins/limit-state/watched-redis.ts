// A Redis client that never makes a request wait for Redis, for the plugins that keep state
// there (the limits' counters, the cache's entries). Commands fail at once while the connection
// is down (no offline queue: a request must not wait for a reconnect), the client reconnects by
// itself with a capped backoff, and the operator log gets one line when an outage starts and
// one when it ends.
import { createClient } from '@keyv/redis';
import type { Logger } from '../../core/logger.js';

const MAX_BACKOFF_MS = 2000;
const CONNECT_TIMEOUT_MS = 1000;

export type RedisClient = ReturnType<typeof createClient>;

export class WatchedRedis {
  readonly client: RedisClient;
  readonly #logger: Logger;
  readonly #name: string;
  /** What the plugin does while Redis is away, said in the outage's log line. */
  readonly #meanwhile: string;
  #down = false;

  constructor(url: string, name: string, meanwhile: string, logger: Logger) {
    this.#logger = logger;
    this.#name = name;
    this.#meanwhile = meanwhile;
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_BACKOFF_MS) },
    });
    // Without a listener an 'error' event would crash the process; reconnecting is the client's job.
    this.client.on('error', (err: unknown) => this.failed(err));
    this.client.on('ready', () => this.#recovered());
  }

  /**
   * Connects, waiting at most the connect timeout so the first requests find the connection
   * ready; never rejects, so a gateway whose Redis is down still starts (and keeps trying).
   */
  async connect(): Promise<void> {
    const connected = this.client.connect().then(
      () => undefined,
      (err: unknown) => this.failed(err),
    );
    await Promise.race([connected, new Promise((r) => setTimeout(r, CONNECT_TIMEOUT_MS).unref())]);
  }

  /** A failed command or connection: logged once per outage. */
  failed(err: unknown): void {
    if (this.#down) return;
    this.#down = true;
    this.#logger.warn(`${this.#name}: redis unreachable (${err instanceof Error ? err.message : String(err)}); ${this.#meanwhile} until it is back`);
  }

  #recovered(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#logger.info(`${this.#name}: redis reachable again`);
  }

  async close(): Promise<void> {
    if (this.client.isReady) await this.client.close();
    else if (this.client.isOpen) this.client.destroy();
  }
}
