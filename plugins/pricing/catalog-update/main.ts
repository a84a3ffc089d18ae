// npm run catalog:update -- [--url <list>] [--catalog <file>] [--only <id,id>] [--write]
//
// Reads a maintained public price list (LiteLLM's model_prices_and_context_window.json by
// default; --url or SLUICE_PRICE_LIST_URL names another in the same format), maps it onto the
// catalog's shape and prints what differs: changed rates, added models, retired models. Nothing
// is written unless --write is given, and then only rates of models the catalog already has
// (restricted to --only when given): a new model needs limits and capabilities a person adds.
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../../core/config.js';
import { applyChanges } from './apply.js';
import { diffCatalog, formatDiff, type CatalogDiff, type CatalogPrices } from './diff.js';
import { mapList, type ListEntry } from './litellm.js';

export const DEFAULT_LIST_URL = 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json';

export interface UpdateOptions {
  url: string;
  catalog: string;
  write: boolean;
  /** Model ids (`<type>/<name>`) to limit the report and the writing to; all when empty. */
  only: string[];
}

/** Runs the update and returns what it printed. */
export async function runUpdate(options: UpdateOptions, print: (text: string) => void = (t) => process.stdout.write(t)): Promise<CatalogDiff> {
  const list = await fetchList(options.url);
  const text = await readFile(options.catalog, 'utf8');
  const diff = only(diffCatalog(parse(text, { maxAliasCount: -1 }) as CatalogPrices, mapList(list)), options.only);
  print(formatDiff(diff, options.url));
  if (!options.write) {
    print('\nNothing written (add --write to write the changed rates).\n');
    return diff;
  }
  const applied = applyChanges(text, diff);
  await writeFile(options.catalog, applied.text);
  print(`\nWrote ${applied.written.length} rates to ${options.catalog}.\n`);
  for (const line of applied.skipped) print(`  not written: ${line}\n`);
  print("Check each against the provider's page and set pricing_sources.checked before you commit.\n");
  return diff;
}

async function fetchList(url: string): Promise<Record<string, ListEntry>> {
  const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${res.statusText}`);
  const body: unknown = await res.json();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error(`${url} is not a JSON object of models`);
  return body as Record<string, ListEntry>;
}

function only(diff: CatalogDiff, ids: readonly string[]): CatalogDiff {
  if (ids.length === 0) return diff;
  const keep = new Set(ids);
  return {
    changed: new Map([...diff.changed].filter(([id]) => keep.has(id))),
    added: diff.added.filter((m) => keep.has(`${m.type}/${m.name}`)),
    retired: diff.retired.filter((id) => keep.has(id)),
  };
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): UpdateOptions {
  const { values } = parseArgs({
    args: argv,
    options: { url: { type: 'string' }, catalog: { type: 'string' }, only: { type: 'string' }, write: { type: 'boolean', default: false } },
  });
  return {
    url: values.url ?? env['SLUICE_PRICE_LIST_URL'] ?? DEFAULT_LIST_URL,
    catalog: resolve(REPO_ROOT, values.catalog ?? 'config/catalog.yaml'),
    write: values.write,
    only: values.only === undefined ? [] : values.only.split(',').map((id) => id.trim()).filter((id) => id !== ''),
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  runUpdate(parseOptions(process.argv.slice(2), process.env)).catch((err: unknown) => {
    process.stderr.write(`catalog:update: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
