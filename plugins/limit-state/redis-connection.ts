// One Redis connection for a limit plugin's counters: Lua scripts run in one round trip each,
// settling writes that nobody waits for, and what it does when Redis is away (watched-redis.ts:
// commands fail at once, the outage is logged once, the client reconnects by itself).
import type { Logger } from '../../core/logger.js';
import type { LuaScript } from './lua-script.js';
import { PendingWrites } from './pending.js';
import { WatchedRedis } from './watched-redis.js';

export class RedisConnection {
  readonly #redis: WatchedRedis;
  readonly #pending = new PendingWrites();

  constructor(url: string, name: string, logger: Logger) {
    this.#redis = new WatchedRedis(url, name, 'limits follow on_redis_error', logger);
  }

  /** Connects, waiting at most the connect timeout; never rejects. */
  connect(): Promise<void> {
    return this.#redis.connect();
  }

  /** Runs a script in one round trip; null when Redis could not (the outage is logged). */
  async tryRun(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.#run(script, keys, args);
    } catch (err) {
      this.#redis.failed(err);
      return null;
    }
  }

  /** Runs a script without anyone waiting for it (settling); close() lets it finish. */
  runLater(script: LuaScript, keys: string[], args: string[]): void {
    this.#pending.add(this.tryRun(script, keys, args).then(() => undefined));
  }

  // EVALSHA, and EVAL once when Redis does not know the script yet.
  async #run(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    const client = this.#redis.client;
    try {
      return await client.evalSha(script.sha, { keys, arguments: args });
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return client.eval(script.text, { keys, arguments: args });
    }
  }

  async close(): Promise<void> {
    await this.#pending.drain();
    await this.#redis.close();
  }
}
