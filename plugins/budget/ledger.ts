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

export interface Ledger {
  /**
   * Adds `estimate` to every account when each still has budget left (spent below its limit);
   * otherwise adds nothing and gives the index of an exhausted account. Null: the store is unreachable.
   */
  reserve(accounts: readonly BudgetAccount[], estimate: bigint): number | null | Promise<number | null>;
  /** Adds `delta` (the true cost minus the reservation) to every account. Never throws. */
  settle(accounts: readonly BudgetAccount[], delta: bigint): void;
  close(): Promise<void>;
}
