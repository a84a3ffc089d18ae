// Spend counted in this process (one gateway); rebuilt from the audit store at start (spend-rebuild.ts).
import type { BudgetAccount, Ledger, Seed } from './ledger.js';

const SWEEP_MS = 3_600_000;

interface Counter {
  spent: bigint;
  end: number | null;
}

export class MemoryLedger implements Ledger {
  readonly #counters = new Map<string, Counter>();
  readonly #sweep: NodeJS.Timeout;

  constructor() {
    // Counters of periods that are over are never read again.
    this.#sweep = setInterval(() => this.#forgetEnded(Date.now()), SWEEP_MS).unref();
  }

  reserve(accounts: readonly BudgetAccount[], estimate: bigint): number {
    for (let i = 0; i < accounts.length; i++) {
      if (this.#counter(accounts[i]!).spent >= accounts[i]!.limit) return i;
    }
    for (const account of accounts) this.#counter(account).spent += estimate;
    return -1;
  }

  settle(accounts: readonly BudgetAccount[], delta: bigint): void {
    for (const account of accounts) this.#counter(account).spent += delta;
  }

  seed(seeds: readonly Seed[]): void {
    for (const [account, spent] of seeds) {
      const counter = this.#counter(account);
      if (counter.spent < spent) counter.spent = spent;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
  }

  #counter(account: Pick<BudgetAccount, 'name' | 'end'>): Counter {
    let counter = this.#counters.get(account.name);
    if (counter === undefined) {
      counter = { spent: 0n, end: account.end };
      this.#counters.set(account.name, counter);
    }
    return counter;
  }

  #forgetEnded(now: number): void {
    for (const [name, counter] of this.#counters) if (counter.end !== null && counter.end <= now) this.#counters.delete(name);
  }
}
