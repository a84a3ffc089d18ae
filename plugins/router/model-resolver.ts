// Model id → Target. Virtual models first (an operator's alias), then `<prefix>/<model>`.
// Targets of known models are built once per table change, so the common case allocates nothing.
import type { Provider, ProviderRegistry, Target } from '../../core/provider.js';
import type { Model, ModelMetadata } from '../../core/types/models.js';
import type { ModelTable } from './model-table.js';
import type { VirtualModelOptions } from './schema.js';

export class ModelResolver {
  readonly #providers: ProviderRegistry;
  readonly #table: ModelTable;
  readonly #virtual: ReadonlyMap<string, VirtualModelOptions>;
  #known = new Map<string, Target>();

  constructor(providers: ProviderRegistry, table: ModelTable, virtual: Record<string, VirtualModelOptions>) {
    this.#providers = providers;
    this.#table = table;
    this.#virtual = new Map(Object.entries(virtual));
  }

  /** Recompute the targets of every known and virtual model (after discovery). */
  rebuild(): void {
    const known = new Map<string, Target>();
    for (const model of this.#table.list()) {
      const target = this.#direct(model.id);
      if (target) known.set(model.id, target);
    }
    for (const [id, v] of this.#virtual) {
      const inner = known.get(v.target) ?? this.#direct(v.target);
      if (!inner) continue;
      known.set(id, { provider: inner.provider, model: inner.model, id, metadata: mergeMetadata(inner.metadata, v) });
    }
    this.#known = known;
  }

  resolve(id: string): Target | null {
    return this.#known.get(id) ?? this.#direct(id);
  }

  /** Virtual models as list entries (their target must resolve to an enabled provider). */
  virtualModels(): Model[] {
    const out: Model[] = [];
    for (const [id, v] of this.#virtual) {
      const target = this.#known.get(id);
      if (!target) continue;
      out.push({ id, object: 'model', created: 0, owned_by: 'sluice', metadata: { ...(target.metadata ?? {}), virtual: true, target: v.target } });
    }
    return out;
  }

  /** Virtual model ids whose target is not served (for a startup warning). */
  unresolvedVirtual(): string[] {
    return [...this.#virtual.keys()].filter((id) => !this.#known.has(id));
  }

  #direct(id: string): Target | null {
    const slash = id.indexOf('/');
    if (slash <= 0 || slash === id.length - 1) return null;
    const provider: Provider | undefined = this.#providers.get(id.slice(0, slash));
    if (!provider) return null;
    return { provider, model: id.slice(slash + 1), id, metadata: this.#table.get(id)?.metadata ?? null };
  }
}

function mergeMetadata(base: ModelMetadata | null, v: VirtualModelOptions): ModelMetadata {
  const merged: ModelMetadata = { ...(base ?? {}), ...(v.metadata ?? {}) };
  if (v.display_name !== undefined) merged.display_name = v.display_name;
  if (v.description !== undefined) merged.description = v.description;
  return merged;
}
