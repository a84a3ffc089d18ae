// The models each provider serves, discovered from the provider (its /models), cached and
// refreshed in the background. A provider that is down keeps its last good list (or none)
// and is asked again sooner; it never stops the gateway.
import type { Logger } from '../../core/logger.js';
import type { Provider, ProviderRegistry } from '../../core/provider.js';
import type { Model } from '../../core/types/models.js';

interface ProviderModels {
  models: Model[];
  fetchedAt: number | null;
  error: string | null;
}

export interface DiscoveryTiming {
  refresh_interval_s: number;
  retry_interval_s: number;
  timeout_ms: number;
}

export class ModelTable {
  readonly #providers: ProviderRegistry;
  readonly #logger: Logger;
  readonly #timing: DiscoveryTiming;
  readonly #state = new Map<string, ProviderModels>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Every discovered model by id, rebuilt after each fetch. */
  #byId = new Map<string, Model>();
  #closed = false;
  /** Listeners told when the table changed (targets are precomputed from it). */
  onChange: (() => void) | null = null;

  constructor(providers: ProviderRegistry, logger: Logger, timing: DiscoveryTiming) {
    this.#providers = providers;
    this.#logger = logger;
    this.#timing = timing;
  }

  /** Fetch every provider's list once; resolves when all have answered or failed. */
  start(): Promise<void> {
    const rounds: Promise<void>[] = [];
    for (const provider of this.#providers) {
      if (provider.listModels) rounds.push(this.#refresh(provider));
    }
    return Promise.all(rounds).then(() => undefined);
  }

  close(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  get(id: string): Model | undefined {
    return this.#byId.get(id);
  }

  /** Models of every provider, in provider order, each list sorted by id. */
  list(): Model[] {
    const out: Model[] = [];
    for (const provider of this.#providers) {
      const state = this.#state.get(provider.name);
      if (state) for (const m of state.models) out.push(m);
    }
    return out;
  }

  status(name: string): ProviderModels | undefined {
    return this.#state.get(name);
  }

  async #refresh(provider: Provider): Promise<void> {
    const state = this.#state.get(provider.name) ?? { models: [], fetchedAt: null, error: null };
    this.#state.set(provider.name, state);
    let next = this.#timing.refresh_interval_s;
    try {
      const models = await provider.listModels!(AbortSignal.timeout(this.#timing.timeout_ms));
      state.models = models.slice().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      state.fetchedAt = Date.now();
      if (state.error !== null) this.#logger.info(`model list of '${provider.name}' is available again (${models.length} models)`);
      state.error = null;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (state.error !== message) this.#logger.warn(`cannot list the models of '${provider.name}': ${message}; keeping ${state.models.length} known models, retrying`);
      state.error = message;
      next = this.#timing.retry_interval_s;
    }
    this.#rebuild();
    this.#schedule(provider, next);
  }

  #schedule(provider: Provider, seconds: number): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#refresh(provider);
    }, seconds * 1000);
    timer.unref();
    this.#timers.add(timer);
  }

  #rebuild(): void {
    const byId = new Map<string, Model>();
    for (const state of this.#state.values()) for (const m of state.models) byId.set(m.id, m);
    this.#byId = byId;
    this.onChange?.();
  }
}
