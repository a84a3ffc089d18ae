// What a spend backend does (memory or Redis). Amounts are whole picodollars (1e-12 USD).

/** One budget a request spends from, in its current period. */
export interface BudgetAccount {
  /** The counter's name: scope, period and period start (`key:k1:monthly:1764547200000`). */
  name: string;
  /** `key:<id>` or `label:<name>:<value>`, for messages. */
  scope: string;
  limit: bigint;
  /** When the period ends (ms), null when it never does. */
  end: number | null;
}

/** A counter and the least it must hold. */
export type Seed = readonly [account: Pick<BudgetAccount, 'name' | 'end'>, spent: bigint];

export interface Ledger {
  /**
   * Adds `estimate` to every account when each still has budget left (spent below its limit);
   * otherwise adds nothing and gives the index of an exhausted account. Null: the store is unreachable.
   */
  reserve(accounts: readonly BudgetAccount[], estimate: bigint): number | null | Promise<number | null>;
  /** Adds `delta` (the true cost minus the reservation) to every account. Never throws. */
  settle(accounts: readonly BudgetAccount[], delta: bigint): void;
  /**
   * Raises each counter to at least the spend given (what the audit store says it spent in its
   * period), for a counter that has not been counting: a budget new to a key, or a new period.
   */
  seed(seeds: readonly Seed[]): void | Promise<void>;
  close(): Promise<void>;
}
