// Rate limits shared by every replica through Redis: one script call to admit, one to settle.
import type { RedisConnection } from '../limit-state/redis-connection.js';
import type { Admission, RateLimiter, RateScope, Refusal, ScopeCounts } from './limiter.js';
import { ADMIT, SETTLE } from './redis-scripts.js';
import { WINDOW_MS } from './sliding-window.js';

const REFUSALS: ReadonlyArray<Refusal | null> = [null, 'requests', 'tokens', 'concurrent'];
const HEAD = 4;
const PER_SCOPE = 5;

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #leaseMs: string;

  constructor(redis: RedisConnection, keyPrefix: string, leaseMs: number) {
    this.#redis = redis;
    this.#prefix = `${keyPrefix}rl:`;
    this.#leaseMs = String(leaseMs);
  }

  async admit(scopes: readonly RateScope[], requestId: string, tokens: number): Promise<Admission | null> {
    const args = [String(WINDOW_MS), this.#leaseMs, requestId, String(tokens)];
    for (const s of scopes) args.push(String(s.rpm), String(s.tpm), String(s.concurrent));
    const reply = (await this.#redis.tryRun(ADMIT, this.#keys(scopes), args)) as number[] | null;
    if (reply === null) return null;
    const counts: ScopeCounts[] = [];
    for (let at = HEAD; at < reply.length; at += PER_SCOPE) {
      counts.push({ requests: { prev: reply[at]!, curr: reply[at + 1]! }, tokens: { prev: reply[at + 2]!, curr: reply[at + 3]! }, inFlight: reply[at + 4]! });
    }
    return { refusedScope: reply[0]! - 1, refusal: REFUSALS[reply[1]!] ?? null, window: reply[2]!, elapsed: reply[3]!, counts };
  }

  settle(scopes: readonly RateScope[], requestId: string, window: number, tokenDelta: number): void {
    if (!scopes.some((s) => s.concurrent > 0 || (s.tpm > 0 && tokenDelta !== 0))) return;
    const args = [String(window), requestId, String(tokenDelta)];
    for (const s of scopes) args.push(String(s.tpm), String(s.concurrent));
    this.#redis.runLater(SETTLE, this.#keys(scopes), args);
  }

  async close(): Promise<void> {
    await this.#redis.close();
  }

  #keys(scopes: readonly RateScope[]): string[] {
    return scopes.map((s) => this.#prefix + s.id);
  }
}
