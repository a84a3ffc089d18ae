// The models each provider serves, discovered from the provider (its /models), cached and
// refreshed in the background. A provider that is down keeps its last good list (or none)
// and is asked again sooner; it never stops the gateway.
import type { Logger } from '../../core/logger.js';
import type { Provider, ProviderRegistry } from '../../core/provider.js';
import type { Model } from '../../core/types/models.js';
import type { Catalog } from './catalog.js';

interface ProviderModels {
  /** What the provider listed the last time it answered; null until it has. */
  discovered: Model[] | null;
  /** The listed models with catalog metadata and overrides applied. */
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
  readonly #catalog: Catalog;
  readonly #state = new Map<string, ProviderModels>();
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Every discovered model by id, rebuilt after each fetch. */
  #byId = new Map<string, Model>();
  #closed = false;
  /** Aborts fetches still running at shutdown: the upstream pools wait for them to finish. */
  readonly #closing = new AbortController();
  /** Listeners told when the table changed (targets are precomputed from it). */
  onChange: (() => void) | null = null;

  constructor(providers: ProviderRegistry, logger: Logger, timing: DiscoveryTiming, catalog: Catalog) {
    this.#providers = providers;
    this.#catalog = catalog;
    this.#logger = logger;
    this.#timing = timing;
  }

  /** Fetch every provider's list once; resolves when all have answered or failed. */
  start(): Promise<void> {
    const rounds: Promise<void>[] = [];
    for (const provider of this.#providers) {
      this.#state.set(provider.name, { discovered: null, models: [], fetchedAt: null, error: null });
      if (provider.listModels) rounds.push(this.#refresh(provider));
    }
    this.#rebuild();
    return Promise.all(rounds).then(() => undefined);
  }

  close(): void {
    this.#closed = true;
    this.#closing.abort();
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

  /** Applies catalog changes (a runtime price) to every listed model. */
  reenrich(): void {
    this.#rebuild();
  }

  async #refresh(provider: Provider): Promise<void> {
    const state = this.#state.get(provider.name)!;
    let next = this.#timing.refresh_interval_s;
    try {
      const models = await provider.listModels!(AbortSignal.any([this.#closing.signal, AbortSignal.timeout(this.#timing.timeout_ms)]));
      state.discovered = models;
      state.fetchedAt = Date.now();
      if (state.error !== null) this.#logger.info(`model list of '${provider.name}' is available again (${models.length} models)`);
      state.error = null;
    } catch (err) {
      if (this.#closed) return;
      const message = err instanceof Error ? err.message : String(err);
      if (state.error !== message) this.#logger.warn(`cannot list the models of '${provider.name}': ${message}; listing ${state.discovered === null ? 'its catalog models' : 'the last known models'} meanwhile`);
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
    for (const provider of this.#providers) {
      const state = this.#state.get(provider.name);
      if (!state) continue;
      // Until a provider has answered, its catalog models stand in so clients can pick them.
      const listed = state.discovered ?? this.#catalog.modelsOf(provider.type, provider.name);
      state.models = listed.map((m) => this.#catalog.enrich(provider.type, m)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      for (const m of state.models) byId.set(m.id, m);
    }
    this.#byId = byId;
    this.onChange?.();
  }
}
