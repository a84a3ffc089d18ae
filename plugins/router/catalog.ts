// The model catalog (config/catalog.yaml): metadata and prices of popular models per provider
// type, maintained as data. Metadata layers, later wins: catalog entry, what the provider
// itself says (discovery), the operator's `model_overrides`, then a price the operator set at
// runtime (the admin API). A model without a known price says so (`pricing: null`) instead of
// looking free.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../core/config.js';
import type { Model, ModelMetadata } from '../../core/types/models.js';
import type { Pricing } from '../../core/types/pricing.js';

export type CatalogData = Record<string, Record<string, ModelMetadata>>;

/** A price the operator set at runtime, and where it came from (shown as `pricing_sources`). */
export interface RuntimePrice {
  pricing: Pricing;
  source: Record<string, unknown>;
}

export class Catalog {
  readonly #data: CatalogData;
  readonly #overrides: ReadonlyMap<string, ModelMetadata>;
  /** Changed only by the admin API, never per request. */
  readonly #prices = new Map<string, RuntimePrice>();

  constructor(data: CatalogData, overrides: Record<string, ModelMetadata> = {}) {
    this.#data = data;
    this.#overrides = new Map(Object.entries(overrides));
  }

  static load(path: string, overrides: Record<string, ModelMetadata>): Catalog {
    const file = isAbsolute(path) ? path : resolve(REPO_ROOT, path);
    return new Catalog(existsSync(file) ? readCatalog(file) : {}, overrides);
  }

  /** Catalog models of a provider type, as a provider instance with this prefix would list them. */
  modelsOf(type: string, prefix: string): Model[] {
    const entries = this.#data[type];
    if (!entries) return [];
    return Object.keys(entries).map((name) => ({ id: `${prefix}/${name}`, object: 'model', created: 0, owned_by: type, metadata: {} }));
  }

  /** The model with its metadata layered: catalog, then the provider's own, then overrides. */
  enrich(type: string, model: Model): Model {
    const name = model.id.slice(model.id.indexOf('/') + 1);
    const fromCatalog = this.#data[type]?.[name];
    const override = this.#overrides.get(model.id);
    const metadata: ModelMetadata = { ...(fromCatalog ?? {}), ...definedOnly(model.metadata), ...(override ?? {}) };
    const price = this.#prices.get(model.id);
    if (price !== undefined) {
      metadata.pricing = price.pricing;
      metadata.pricing_sources = price.source;
    }
    if (metadata.pricing === undefined) metadata.pricing = null;
    return { id: model.id, object: 'model', created: model.created, owned_by: model.owned_by, metadata };
  }

  /** Sets the operator's price of a model id (null: back to the layers below); enrich applies it. */
  setPrice(id: string, price: RuntimePrice | null): void {
    if (price === null) this.#prices.delete(id);
    else this.#prices.set(id, price);
  }

  /** Override ids that name no listed model (for a warning). */
  unusedOverrides(listed: ReadonlySet<string>): string[] {
    return [...this.#overrides.keys()].filter((id) => !listed.has(id));
  }
}

const parsed = new Map<string, { mtimeMs: number; data: CatalogData }>();

/**
 * Parsing the catalog's YAML (hundreds of entries, many aliases) takes 100+ ms; a process that
 * starts several gateways (tests, embedding) parses an unchanged file once. Entries are only read.
 */
function readCatalog(file: string): CatalogData {
  const { mtimeMs } = statSync(file);
  const cached = parsed.get(file);
  if (cached !== undefined && cached.mtimeMs === mtimeMs) return cached.data;
  const data = (parse(readFileSync(file, 'utf8'), { maxAliasCount: -1 }) ?? {}) as CatalogData;
  parsed.set(file, { mtimeMs, data });
  return data;
}

function definedOnly(metadata: ModelMetadata): ModelMetadata {
  const out: ModelMetadata = {};
  for (const [k, v] of Object.entries(metadata)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}
