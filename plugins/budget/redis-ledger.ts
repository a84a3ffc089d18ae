// Spend shared by every replica through Redis: one script call to reserve, one to settle.
// Counters are whole picodollars in plain Redis integers (INCRBY is exact to 2^63), compared
// as digit strings in Lua, whose numbers are doubles and would round above $9,007.
import { luaScript } from '../limit-state/lua-script.js';
import type { RedisConnection } from '../limit-state/redis-connection.js';
import type { BudgetAccount, Ledger } from './ledger.js';

// Kept a day past its period, so a call that ends after the reset still settles where it reserved.
const KEEP_AFTER_END_MS = 86_400_000;

/** KEYS: counters. ARGV: estimate, then limit and expiry (ms since the epoch, 0 for none) per counter. */
const RESERVE = luaScript(`
local function below(spent, limit)
  if string.sub(spent, 1, 1) == '-' then return true end
  if #spent ~= #limit then return #spent < #limit end
  return spent < limit
end
for i, key in ipairs(KEYS) do
  if not below(redis.call('GET', key) or '0', ARGV[i * 2]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('INCRBY', key, ARGV[1])
  if ARGV[i * 2 + 1] ~= '0' then redis.call('PEXPIREAT', key, ARGV[i * 2 + 1]) end
end
return 0
`);

/** KEYS: counters. ARGV: delta. A counter that expired is not brought back without its expiry. */
const SETTLE = luaScript(`
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then redis.call('INCRBY', key, ARGV[1]) end
end
return 0
`);

export class RedisLedger implements Ledger {
  readonly #redis: RedisConnection;
  readonly #prefix: string;

  constructor(redis: RedisConnection, keyPrefix: string) {
    this.#redis = redis;
    this.#prefix = `${keyPrefix}budget:`;
  }

  async reserve(accounts: readonly BudgetAccount[], estimate: bigint): Promise<number | null> {
    const args = [estimate.toString()];
    for (const a of accounts) args.push(a.limit.toString(), a.end === null ? '0' : String(a.end + KEEP_AFTER_END_MS));
    const exhausted = (await this.#redis.tryRun(RESERVE, this.#keys(accounts), args)) as number | null;
    return exhausted === null ? null : exhausted - 1;
  }

  settle(accounts: readonly BudgetAccount[], delta: bigint): void {
    if (delta === 0n) return;
    this.#redis.runLater(SETTLE, this.#keys(accounts), [delta.toString()]);
  }

  async close(): Promise<void> {
    await this.#redis.close();
  }

  #keys(accounts: readonly BudgetAccount[]): string[] {
    return accounts.map((a) => this.#prefix + a.name);
  }
}
