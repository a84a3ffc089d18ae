// Keys whose budget is new wait here until their counter is seeded (spend-rebuild.ts, seedKeys):
// a seed that fails (the audit store or Redis unreachable) is tried again every few seconds rather
// than leaving the key to spend its whole budget again.
import type { BudgetedKey } from '../keys/index.js';

export class KeySeeds {
  readonly #seed: (keys: BudgetedKey[]) => Promise<void>;
  readonly #failed: (err: unknown) => void;
  readonly #retryMs: number;
  readonly #waiting = new Map<string, BudgetedKey>();
  #retry: NodeJS.Timeout | null = null;
  #failing = false;

  /** `failed` is told of the first failure of a streak. */
  constructor(seed: (keys: BudgetedKey[]) => Promise<void>, failed: (err: unknown) => void, retryMs = 5_000) {
    this.#seed = seed;
    this.#failed = failed;
    this.#retryMs = retryMs;
  }

  /** Seeds `keys` and any still waiting; resolves after this try, whatever its outcome. */
  add(keys: readonly BudgetedKey[]): Promise<void> {
    for (const key of keys) this.#waiting.set(key.id, key);
    return this.#flush();
  }

  close(): void {
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#retry = null;
  }

  async #flush(): Promise<void> {
    const keys = [...this.#waiting.values()];
    if (keys.length === 0) return;
    try {
      await this.#seed(keys);
      this.#failing = false;
      // A key changed again meanwhile waits for its own seed.
      for (const key of keys) if (this.#waiting.get(key.id) === key) this.#waiting.delete(key.id);
    } catch (err) {
      if (!this.#failing) this.#failed(err);
      this.#failing = true;
      this.#retry ??= setTimeout(() => {
        this.#retry = null;
        void this.#flush();
      }, this.#retryMs).unref();
    }
  }
}
