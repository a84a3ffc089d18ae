// Spend shared by every replica through Redis: one script call to reserve, one to settle.
// Counters are whole picodollars in plain Redis integers (INCRBY is exact to 2^63), compared
// as digit strings in Lua, whose numbers are doubles and would round above $9,007.
import { luaScript } from '../limit-state/lua-script.js';
import type { RedisConnection } from '../limit-state/redis-connection.js';
import type { BudgetAccount, Ledger, Seed } from './ledger.js';

// Kept a day past its period, so a call that ends after the reset still settles where it reserved.
const KEEP_AFTER_END_MS = 86_400_000;
const SEEDS_PER_SCRIPT = 100;

// Whether one counter's digits stand for less than another's (both whole, the second not negative).
const BELOW = `
local function below(spent, limit)
  if string.sub(spent, 1, 1) == '-' then return true end
  if #spent ~= #limit then return #spent < #limit end
  return spent < limit
end
`;

/** KEYS: counters. ARGV: estimate, then limit and expiry (ms since the epoch, 0 for none) per counter. */
const RESERVE = luaScript(`${BELOW}
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

/** KEYS: counters. ARGV: the least spend and the expiry (0 for none) per counter. */
const SEED = luaScript(`${BELOW}
for i, key in ipairs(KEYS) do
  if below(redis.call('GET', key) or '0', ARGV[i * 2 - 1]) then
    redis.call('SET', key, ARGV[i * 2 - 1])
    if ARGV[i * 2] ~= '0' then redis.call('PEXPIREAT', key, ARGV[i * 2]) end
  end
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
    for (const a of accounts) args.push(a.limit.toString(), expiry(a.end));
    const exhausted = (await this.#redis.tryRun(RESERVE, this.#keys(accounts), args)) as number | null;
    return exhausted === null ? null : exhausted - 1;
  }

  settle(accounts: readonly BudgetAccount[], delta: bigint): void {
    if (delta === 0n) return;
    this.#redis.runLater(SETTLE, this.#keys(accounts), [delta.toString()]);
  }

  /** Rejects when Redis cannot be reached: the seeds are to be tried again. */
  async seed(seeds: readonly Seed[]): Promise<void> {
    // A bounded script each: a replica's first seed holds every budgeted key.
    for (let i = 0; i < seeds.length; i += SEEDS_PER_SCRIPT) {
      const batch = seeds.slice(i, i + SEEDS_PER_SCRIPT);
      const args: string[] = [];
      for (const [account, spent] of batch) args.push(spent.toString(), expiry(account.end));
      if ((await this.#redis.tryRun(SEED, this.#keys(batch.map(([account]) => account)), args)) === null) throw new Error('Redis is unreachable');
    }
  }

  async close(): Promise<void> {
    await this.#redis.close();
  }

  #keys(accounts: ReadonlyArray<Pick<BudgetAccount, 'name'>>): string[] {
    return accounts.map((a) => this.#prefix + a.name);
  }
}

/** When a counter expires (ms since the epoch), '0' for never. */
function expiry(end: number | null): string {
  return end === null ? '0' : String(end + KEEP_AFTER_END_MS);
}
