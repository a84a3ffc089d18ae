// One Redis connection for a limit plugin's counters, and what it does when Redis is away.
// Commands fail at once while the connection is down (no offline queue: a request must not
// wait for a reconnect), the client reconnects by itself with a capped backoff, and the
// operator log gets one line when an outage starts and one when it ends.
import { createClient } from '@keyv/redis';
import type { Logger } from '../../core/logger.js';
import type { LuaScript } from './lua-script.js';
import { PendingWrites } from './pending.js';

const MAX_BACKOFF_MS = 2000;
const CONNECT_TIMEOUT_MS = 1000;

export class RedisConnection {
  readonly #client: ReturnType<typeof createClient>;
  readonly #logger: Logger;
  readonly #name: string;
  readonly #pending = new PendingWrites();
  #down = false;

  constructor(url: string, name: string, logger: Logger) {
    this.#logger = logger;
    this.#name = name;
    this.#client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_BACKOFF_MS) },
    });
    // Without a listener an 'error' event would crash the process; reconnecting is the client's job.
    this.#client.on('error', (err: unknown) => this.#failed(err));
    this.#client.on('ready', () => this.#recovered());
  }

  /**
   * Connects, waiting at most the connect timeout so the first requests find the connection
   * ready; never rejects, so a gateway whose Redis is down still starts (and keeps trying).
   */
  async connect(): Promise<void> {
    const connected = this.#client.connect().then(
      () => undefined,
      (err: unknown) => this.#failed(err),
    );
    await Promise.race([connected, new Promise((r) => setTimeout(r, CONNECT_TIMEOUT_MS).unref())]);
  }

  /** Runs a script in one round trip; null when Redis could not (the outage is logged). */
  async tryRun(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.#run(script, keys, args);
    } catch (err) {
      this.#failed(err);
      return null;
    }
  }

  /** Runs a script without anyone waiting for it (settling); close() lets it finish. */
  runLater(script: LuaScript, keys: string[], args: string[]): void {
    this.#pending.add(this.tryRun(script, keys, args).then(() => undefined));
  }

  // EVALSHA, and EVAL once when Redis does not know the script yet.
  async #run(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.#client.evalSha(script.sha, { keys, arguments: args });
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.#client.eval(script.text, { keys, arguments: args });
    }
  }

  // A failed command or connection: logged once per outage.
  #failed(err: unknown): void {
    if (this.#down) return;
    this.#down = true;
    this.#logger.warn(`${this.#name}: redis unreachable (${err instanceof Error ? err.message : String(err)}); limits follow on_redis_error until it is back`);
  }

  #recovered(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#logger.info(`${this.#name}: redis reachable again`);
  }

  async close(): Promise<void> {
    await this.#pending.drain();
    if (this.#client.isReady) await this.#client.close();
    else if (this.#client.isOpen) this.#client.destroy();
  }
}
