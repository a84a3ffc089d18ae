// Model id → Target. Virtual models first (an operator's alias or list of targets), then
// `<prefix>/<model>`. Targets of known models are built once per table change, so the common
// case allocates nothing. A virtual model routes to its first served target; the failover
// plugin reads its whole plan (every served target, the strategy) to try the others.
import type { Provider, ProviderRegistry, Target } from '../../core/provider.js';
import type { Model, ModelMetadata } from '../../core/types/models.js';
import type { ModelTable } from './model-table.js';
import type { Strategy, VirtualModelOptions } from './schema.js';

/** A virtual model's served targets, each its own model id and metadata (its own price). */
export interface VirtualPlan {
  strategy: Strategy;
  targets: Array<{ target: Target; weight: number }>;
}

export class ModelResolver {
  readonly #providers: ProviderRegistry;
  readonly #table: ModelTable;
  readonly #virtual: ReadonlyMap<string, VirtualModelOptions>;
  #known = new Map<string, Target>();
  #plans = new Map<string, VirtualPlan>();

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
    const plans = new Map<string, VirtualPlan>();
    for (const [id, v] of this.#virtual) {
      const targets: VirtualPlan['targets'] = [];
      for (const member of membersOf(v)) {
        const target = known.get(member.model) ?? this.#direct(member.model);
        if (target) targets.push({ target, weight: member.weight });
      }
      const first = targets[0]?.target;
      if (!first) continue;
      plans.set(id, { strategy: v.strategy, targets });
      known.set(id, { provider: first.provider, model: first.model, id, metadata: mergeMetadata(first.metadata, v) });
    }
    this.#known = known;
    this.#plans = plans;
  }

  /** The plan of a virtual model id; null for any other id. */
  plan(id: string): VirtualPlan | null {
    return this.#plans.get(id) ?? null;
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
      const members = membersOf(v).map((m) => m.model);
      out.push({ id, object: 'model', created: 0, owned_by: 'sluice', metadata: { ...(target.metadata ?? {}), virtual: true, target: members[0], targets: members, strategy: v.strategy } });
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

function membersOf(v: VirtualModelOptions): Array<{ model: string; weight: number }> {
  return v.targets ?? [{ model: v.target!, weight: 1 }];
}

function mergeMetadata(base: ModelMetadata | null, v: VirtualModelOptions): ModelMetadata {
  const merged: ModelMetadata = { ...(base ?? {}), ...(v.metadata ?? {}) };
  if (v.display_name !== undefined) merged.display_name = v.display_name;
  if (v.description !== undefined) merged.description = v.description;
  return merged;
}
