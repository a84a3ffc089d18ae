// Plugin lists for test configs. A config's `plugins:` replaces the shipped list whole, so a
// test that adds a plugin or passes options starts from the shipped defaults.
import type { PluginEntry } from '../../core/config.js';
import { loadConfig } from '../../core/config.js';

export type PluginList = Array<string | PluginEntry>;

/** The plugins of config/defaults.yaml, as shipped. */
export function defaultPlugins(): PluginList {
  return loadConfig({ overrides: {}, env: {} }).config.plugins;
}

/** The shipped list with one plugin given options (its entry replaced in place). */
export function withPluginOptions(name: string, options: Record<string, unknown>, plugins: PluginList = defaultPlugins()): PluginList {
  let found = false;
  const out = plugins.map((p) => {
    const entryName = typeof p === 'string' ? p : p.name;
    if (entryName !== name) return p;
    found = true;
    return { name, options };
  });
  if (!found) throw new Error(`plugin '${name}' is not in the list`);
  return out;
}
