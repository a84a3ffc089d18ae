// Loads the plugins the config lists: built-ins by name (plugins/<name>/index), an
// operator's own by path (relative to the config file) or by package name (from the config
// file's folder, then from the gateway's own). Options are validated against each plugin's
// schema; dependencies are checked and ordered.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { CODE_ROOT } from './config.js';
import type { LoadedConfig, PluginEntry } from './config.js';
import { StartupError, jsonPointerToKey, schemaErrorMessage } from './config-error.js';
import type { PluginDefinition } from './plugin.js';
import { isTypeScriptFile, loadTypeScript } from './typescript-loader.js';

export interface LoadedPlugin {
  definition: PluginDefinition<unknown>;
  options: unknown;
  /** `plugins[3] (router)`, for messages. */
  where: string;
}

export async function loadPlugins(loaded: LoadedConfig): Promise<LoadedPlugin[]> {
  // Coercing like the core config does: `${VAR}` expands to a string, so
  // `retry_interval_s: ${RETRY:-30}` must read as the number it spells, in plugin options as in
  // core keys. Made per load: the validators it compiles (a few hundred KB) serve boot only.
  const ajv = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: true, strict: false });
  const result: LoadedPlugin[] = [];
  const seen = new Set<string>();
  const entries = loaded.config.plugins;
  for (let i = 0; i < entries.length; i++) {
    const raw = entries[i]!;
    const entry: PluginEntry = typeof raw === 'string' ? { name: raw } : raw;
    if (entry.enabled === false) continue;
    const label = entry.name ?? entry.path ?? entry.package ?? '?';
    const where = `plugins[${i}] (${label})`;
    const definition = await importPlugin(loaded, entry, where);
    if (seen.has(definition.name)) {
      throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${loaded.source}: ${where}: plugin '${definition.name}' is listed twice`);
    }
    seen.add(definition.name);
    result.push({ definition, options: validateOptions(ajv, loaded.source, where, definition, entry.options), where });
  }
  return orderByDependencies(loaded.source, result);
}

async function importPlugin(loaded: LoadedConfig, entry: PluginEntry, where: string): Promise<PluginDefinition<unknown>> {
  let specifier: string;
  if (entry.name !== undefined) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(entry.name)) {
      throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${loaded.source}: ${where}.name: must be a built-in plugin name (lower-case letters, digits, '-')`);
    }
    // Compiled (dist/) or sources run through tsx: whichever this core was loaded from.
    const base = resolve(CODE_ROOT, 'plugins', entry.name, 'index');
    const file = existsSync(`${base}.js`) ? `${base}.js` : `${base}.ts`;
    if (!existsSync(file)) throw new StartupError('SLUICE_ERR_PLUGIN_NOT_FOUND', `${loaded.source}: ${where}: no built-in plugin named '${entry.name}'`);
    specifier = pathToFileURL(file).href;
  } else if (entry.path !== undefined) {
    const file = isAbsolute(entry.path) ? entry.path : resolve(loaded.baseDir, entry.path);
    if (!existsSync(file)) throw new StartupError('SLUICE_ERR_PLUGIN_NOT_FOUND', `${loaded.source}: ${where}.path: no file at ${file}`);
    specifier = pathToFileURL(file).href;
  } else {
    specifier = packageUrl(entry.package!, loaded.baseDir);
  }
  let mod: { default?: unknown };
  try {
    if (isTypeScriptFile(specifier)) await loadTypeScript();
    mod = (await import(specifier)) as { default?: unknown };
  } catch (err) {
    throw new StartupError('SLUICE_ERR_PLUGIN_NOT_FOUND', `${loaded.source}: ${where}: cannot load ${specifier}: ${(err as Error).message.split('\n')[0]}`, err);
  }
  const def = mod.default as Partial<PluginDefinition<unknown>> | undefined;
  if (!def || typeof def.name !== 'string' || typeof def.setup !== 'function') {
    throw new StartupError('SLUICE_ERR_PLUGIN_INVALID', `${loaded.source}: ${where}: the module's default export must be a plugin (definePlugin({ name, setup }))`);
  }
  return def as PluginDefinition<unknown>;
}

/**
 * Where a plugin package is: in the node_modules of the config file's folder (an operator's
 * own install; found with `require.resolve`, so its `exports` need a `default` entry), else in
 * the gateway's. Left as the bare name when neither has it: the import then says so.
 */
function packageUrl(name: string, baseDir: string): string {
  try {
    return pathToFileURL(createRequire(resolve(baseDir, 'plugins.yaml')).resolve(name)).href;
  } catch {
    try {
      return import.meta.resolve(name);
    } catch {
      return name;
    }
  }
}

function validateOptions(ajv: Ajv, source: string, where: string, def: PluginDefinition<unknown>, options: unknown): unknown {
  if (!def.schema) {
    if (options !== undefined && options !== null) {
      throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${source}: ${where}.options: plugin '${def.name}' takes no options`);
    }
    return undefined;
  }
  const value = options ?? {};
  const validate = ajv.compile(def.schema);
  if (!validate(value)) {
    const err = validate.errors![0]!;
    const key = jsonPointerToKey(err.instancePath);
    throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${source}: ${where}.options${key ? (key.startsWith('[') ? key : '.' + key) : ''}: ${schemaErrorMessage(err)}`);
  }
  return value;
}

/** Stable topological order: a plugin comes after what it depends on, otherwise in list order. */
function orderByDependencies(source: string, plugins: LoadedPlugin[]): LoadedPlugin[] {
  const byName = new Map(plugins.map((p) => [p.definition.name, p]));
  for (const p of plugins) {
    for (const dep of p.definition.dependsOn ?? []) {
      if (!byName.has(dep)) {
        throw new StartupError('SLUICE_ERR_PLUGIN_DEPENDENCY', `${source}: ${p.where}: needs plugin '${dep}', which is not enabled`);
      }
    }
  }
  const ordered: LoadedPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: LoadedPlugin): void => {
    const s = state.get(p.definition.name);
    if (s === 'done') return;
    if (s === 'visiting') throw new StartupError('SLUICE_ERR_PLUGIN_DEPENDENCY', `${source}: ${p.where}: dependency cycle through '${p.definition.name}'`);
    state.set(p.definition.name, 'visiting');
    for (const dep of p.definition.dependsOn ?? []) visit(byName.get(dep)!);
    state.set(p.definition.name, 'done');
    ordered.push(p);
  };
  for (const p of plugins) visit(p);
  return ordered;
}
