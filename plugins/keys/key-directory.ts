// The keys every replica knows, in memory by the hash of their secret: a lookup is one Map read.
// The directory follows the store's change feed (changedSince, polled every refresh_ms), so a key
// disabled, expired or deleted on any replica stops working here within about refresh_ms. A
// directory the feed has not refreshed for a second (the store failing) is not trusted: lookups
// then go to the store, and fail closed when it cannot answer. The directory wakes at its first
// use (a token that is not the master key, or an admin call on keys): a gateway used with the
// master key only never reads the store for keys, nor starts the store's worker. Listeners are
// told of the keys whose budget a pull found new to this directory: set since it last looked, put
// on another period, or every budgeted key at the first pull (budget spend is seeded from them).
import { timingSafeEqual } from 'node:crypto';
import type { KeyBudget, Principal } from '../../core/context.js';
import { forbidden, GatewayError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { KeysStore, StoredKey } from '../audit/store/store.js';
import type { KeyStore } from '../auth/key-store.js';

/** Older than this, the directory is not used (the contract: revocation within one second). */
const STALE_MS = 1000;
const PAGE = 1000;

/** A key whose budget the directory has not seen before, in that period. */
export interface BudgetedKey {
  id: string;
  budget: KeyBudget;
}

interface KnownKey {
  principal: Principal;
  /** The secret's hash as bytes, for the constant-time comparison. */
  hash: Buffer;
  disabled: boolean;
  expiresAt: number | null;
}

export class KeyDirectory implements KeyStore {
  readonly #store: KeysStore;
  readonly #refreshMs: number;
  readonly #logger: Logger;
  readonly #byHash = new Map<string, KnownKey>();
  readonly #budgetListeners: Array<(keys: BudgetedKey[]) => Promise<void>> = [];
  #version = 0;
  /** performance.now() when the last refresh that completed began. */
  #freshAt = -Infinity;
  #timer: NodeJS.Timeout | null = null;
  /** The pull that has not begun yet, which callers of refresh() share. */
  #pending: Promise<void> | null = null;
  /** Settles when the last pull asked for has ended. */
  #last: Promise<void> = Promise.resolve();
  #failing = false;
  /** Following the feed (since the first use)? */
  #awake = false;
  #stopped = false;

  constructor(store: KeysStore, refreshMs: number, logger: Logger) {
    this.#store = store;
    this.#refreshMs = refreshMs;
    this.#logger = logger;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#last;
  }

  /**
   * Applies the changes since the last refresh (all keys, the first time) and follows the feed
   * from then on. Pulls run one at a time, and a caller never joins one that has begun: it may
   * have read before the caller's own write (an admin call refreshes after writing).
   */
  refresh(): Promise<void> {
    if (!this.#awake && !this.#stopped) {
      this.#awake = true;
      this.#schedule();
    }
    if (this.#pending === null) {
      const pull = this.#last.then(() => {
        this.#pending = null;
        return this.#pull();
      });
      this.#pending = pull;
      this.#last = pull.catch(() => undefined);
    }
    return this.#pending;
  }

  /**
   * Tells `listener` of keys whose budget a pull found new (docs/budgets.md, "Changing a budget");
   * the pull, and so an admin call that changed a key, ends once it has settled.
   */
  onNewBudgets(listener: (keys: BudgetedKey[]) => Promise<void>): void {
    this.#budgetListeners.push(listener);
  }

  /** The principal of the key whose secret hashes to `secretHash`; throws 403 for a disabled or expired one. */
  findByHash(secretHash: string): Principal | null | Promise<Principal | null> {
    if (performance.now() - this.#freshAt < STALE_MS) {
      const known = this.#byHash.get(secretHash);
      if (known !== undefined) return admit(known, secretHash);
    }
    // Not known here (created on another replica since the last refresh, or unknown), or the
    // directory is stale or still asleep: the store answers by its index on the hash.
    if (!this.#awake) this.refresh().catch(() => undefined);
    return this.#store.findByHash(secretHash).then(
      (key) => (key === null || key.deleted ? null : admit(knownKey(key), secretHash)),
      (err: Error) => {
        throw new GatewayError({ status: 503, type: 'internal_error', code: 'store_unavailable', message: 'API keys cannot be checked right now; try again shortly', retryAfter: 1, cause: err });
      },
    );
  }

  async #pull(): Promise<void> {
    const began = performance.now();
    const budgeted: BudgetedKey[] = [];
    try {
      for (;;) {
        const changes = await this.#store.changedSince(this.#version, PAGE);
        for (const key of changes) this.#apply(key, budgeted);
        if (changes.length < PAGE) break;
      }
      this.#freshAt = began;
    } finally {
      // Also when a later page failed: the keys applied before it are not reported again.
      if (budgeted.length > 0) await Promise.allSettled(this.#budgetListeners.map((listener) => listener(budgeted)));
    }
  }

  /** Applies one change; a key whose budget is new to the directory (or in a new period) joins `budgeted`. */
  #apply(key: StoredKey, budgeted: BudgetedKey[]): void {
    this.#version = key.version;
    if (key.deleted) {
      this.#byHash.delete(key.secret_hash);
      return;
    }
    // A key keeps its secret: the one known by the same hash is this key as the directory last saw it.
    const seen = this.#byHash.get(key.secret_hash)?.principal.budget?.period;
    this.#byHash.set(key.secret_hash, knownKey(key));
    if (key.budget !== null && key.budget.period !== seen) budgeted.push({ id: key.id, budget: key.budget });
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      this.refresh().then(
        () => {
          if (this.#failing) this.#logger.info('API keys: the store answers again');
          this.#failing = false;
        },
        (err: Error) => {
          // Once per outage: the poll goes on every refresh_ms and recovers by itself.
          if (!this.#failing) this.#logger.warn(`API keys: cannot read changes from the store (${err.message}); lookups go to the store until it answers`);
          this.#failing = true;
        },
      ).finally(() => {
        if (!this.#stopped) this.#schedule();
      });
    }, this.#refreshMs);
    this.#timer.unref();
  }
}

function knownKey(key: StoredKey): KnownKey {
  const principal: Principal = Object.freeze({
    id: key.id,
    name: key.name,
    kind: 'key',
    admin: key.admin,
    labels: Object.freeze({ ...key.labels }),
    allowedModels: key.allowed_models,
    budget: key.budget,
    rateLimit: key.rate_limit,
  });
  return { principal, hash: Buffer.from(key.secret_hash, 'hex'), disabled: key.disabled, expiresAt: key.expires_at };
}

function admit(known: KnownKey, secretHash: string): Principal | null {
  // The Map found it by this hash already; compared again in constant time all the same, so no
  // timing of ours depends on how much of a presented hash matches a stored one.
  const presented = Buffer.from(secretHash, 'hex');
  if (presented.length !== known.hash.length || !timingSafeEqual(presented, known.hash)) return null;
  if (known.disabled) throw forbidden('this API key is disabled', 'key_disabled');
  if (known.expiresAt !== null && Date.now() >= known.expiresAt) throw forbidden(`this API key expired at ${new Date(known.expiresAt).toISOString()}`, 'key_expired');
  return known.principal;
}
