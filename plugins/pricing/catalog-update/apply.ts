// Writes reviewed rate changes into the catalog's text. Only the `pricing` value of a changed
// model is rewritten (as a one-line flow map, the catalog's usual form); every other byte of the
// file, comments and aliases included, stays as it was. A rate reached through a YAML alias
// (`gpt-4o-2024-08-06: *openai-gpt-4o`) is not written there: the entry the alias points to is
// changed under its own name, and where the two would then differ a person must break the alias.
import { isAlias, isNode, parseDocument, stringify, type Document } from 'yaml';
import type { CatalogDiff, RateChange } from './diff.js';
import { pathText } from './diff.js';

export interface Applied {
  text: string;
  written: string[];
  /** Rates left alone, with why. */
  skipped: string[];
}

interface Edit {
  start: number;
  end: number;
  replacement: string;
}

export function applyChanges(text: string, diff: CatalogDiff): Applied {
  const doc = parseDocument(text);
  const data: unknown = doc.toJS({ maxAliasCount: -1 });
  const written: string[] = [];
  const aliased: Array<{ path: (string | number)[]; where: string; list: number }> = [];
  const edits: Edit[] = [];
  for (const [id, changes] of diff.changed) {
    const slash = id.indexOf('/');
    const pricingPath = [id.slice(0, slash), id.slice(slash + 1), 'pricing'];
    if (throughAlias(doc, pricingPath)) {
      for (const c of changes) aliased.push({ path: [...pricingPath, ...c.path], where: `${id} ${pathText(c.path)}`, list: c.list });
      continue;
    }
    const node = doc.getIn(pricingPath, true);
    if (!isNode(node) || node.range == null) continue;
    const [start, end] = node.range;
    const trailingNewline = text[end - 1] === '\n' ? '\n' : '';
    edits.push({ start, end, replacement: flow(withChanges(valueAt(data, pricingPath), changes)) + trailingNewline });
    for (const c of changes) written.push(`${id} ${pathText(c.path)}: ${c.catalog ?? '(none)'} -> ${c.list}`);
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.replacement + out.slice(edit.end);
  // An aliased rate is right when the entry it points to now holds what the list says.
  const after: unknown = parseDocument(out).toJS({ maxAliasCount: -1 });
  const skipped = aliased.filter((a) => valueAt(after, a.path) !== a.list).map((a) => `${a.where}: shared through a YAML alias; break the alias to give it ${a.list}`);
  return { text: out, written, skipped };
}

function withChanges(pricing: unknown, changes: readonly RateChange[]): unknown {
  const copy = structuredClone(pricing) as Record<string | number, unknown>;
  for (const { path, list } of changes) {
    let at = copy;
    for (const [i, key] of path.slice(0, -1).entries()) {
      at[key] ??= typeof path[i + 1] === 'number' ? [] : {};
      at = at[key] as Record<string | number, unknown>;
    }
    at[path[path.length - 1]!] = list;
  }
  return copy;
}

/** The catalog's one-line form: `{ input_per_mtok: 1, tiers: [{ … }, { … }] }`. */
function flow(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flow).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{ ${Object.entries(value).map(([k, v]) => `${k}: ${flow(v)}`).join(', ')} }`;
  return stringify(value).trimEnd();
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let value = data;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined;
  return value;
}

/** Whether a node on the way to `path` (the last key included) is an alias. */
function throughAlias(doc: Document, path: readonly (string | number)[]): boolean {
  for (let depth = 1; depth <= path.length; depth++) {
    if (isAlias(doc.getIn(path.slice(0, depth), true))) return true;
  }
  return false;
}
