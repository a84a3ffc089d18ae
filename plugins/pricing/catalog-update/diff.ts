// What a person reviews before the catalog takes anything from a maintained price list: prices
// that differ, models the list has and the catalog does not, and catalog models the list no
// longer has. The list lags providers (both LiteLLM and models.dev missed DeepSeek's peak hours),
// so nothing here is applied on its own.
import type { Pricing } from '../../../core/types/pricing.js';
import type { ListedModel } from './litellm.js';

export type CatalogPrices = Record<string, Record<string, { pricing?: Pricing | null }>>;

/** One rate or tier bound: its place in the pricing object (`tiers[1].input_per_mtok`) and both values. */
export interface RateChange {
  path: (string | number)[];
  /** undefined: the catalog has no such rate and the list has one. */
  catalog: number | undefined;
  list: number;
}

export interface CatalogDiff {
  /** By model id, the rates that differ or that only the list gives. */
  changed: Map<string, RateChange[]>;
  /** Models of the provider types the catalog covers that only the list has. */
  added: ListedModel[];
  /** Catalog models (with a price) that the list does not have. */
  retired: string[];
}

/** Only what the list can say is compared: a rate only the catalog has is not a difference. */
export function diffCatalog(catalog: CatalogPrices, list: ReadonlyMap<string, ListedModel>): CatalogDiff {
  const changed = new Map<string, RateChange[]>();
  const retired: string[] = [];
  const covered = new Set(Object.keys(catalog));
  for (const [type, models] of Object.entries(catalog)) {
    for (const [name, meta] of Object.entries(models)) {
      if (meta.pricing == null) continue;
      const listed = list.get(`${type}/${name}`);
      if (listed === undefined) {
        retired.push(`${type}/${name}`);
        continue;
      }
      const changes = rateChanges(meta.pricing, listed.pricing);
      if (changes.length > 0) changed.set(`${type}/${name}`, changes);
    }
  }
  const added = [...list.values()].filter((m) => covered.has(m.type) && catalog[m.type]?.[m.name] === undefined);
  return { changed, added, retired };
}

function rateChanges(catalog: Pricing, list: Pricing): RateChange[] {
  const ours = new Map(rates(catalog).map(([path, value]) => [path.join('.'), value]));
  const changes: RateChange[] = [];
  for (const [path, value] of rates(list)) {
    const current = ours.get(path.join('.'));
    if (current !== value) changes.push({ path, catalog: current, list: value });
  }
  return changes;
}

/** Every number of a pricing (rates and tier bounds) with its path, time windows left out (the list has none). */
function rates(value: unknown, path: (string | number)[] = []): Array<[(string | number)[], number]> {
  if (typeof value === 'number') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => rates(item, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => (key === 'time_windows' ? [] : rates(item, [...path, key])));
  }
  return [];
}

/** The diff as text for a person: one line per rate, model or name. */
export function formatDiff(diff: CatalogDiff, source: string): string {
  const out: string[] = [`Prices of the catalog against ${source}`, '', `changed (${diff.changed.size} models):`];
  for (const [id, changes] of diff.changed) {
    for (const c of changes) out.push(`  ${id}  ${pathText(c.path)}: ${c.catalog ?? '(none)'} -> ${c.list}`);
  }
  out.push('', `added (${diff.added.length} models the list has and the catalog does not):`);
  for (const m of diff.added) out.push(`  ${m.type}/${m.name}  input ${m.pricing.input_per_mtok}, output ${m.pricing.output_per_mtok ?? '(none)'}`);
  out.push('', `retired (${diff.retired.length} catalog models the list does not have):`);
  for (const id of diff.retired) out.push(`  ${id}`);
  return `${out.join('\n')}\n`;
}

export function pathText(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
