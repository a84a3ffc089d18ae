// Which instances of a provider type are enabled, from `providers:` in the config and the
// environment (docs/api.md, "Providers"). The rules are the same for every provider; each
// provider plugin only names its variables.
import type { LoadedConfig, ProviderEntry } from './config.js';

export interface ProviderEnvSpec {
  /** Default prefix, also the config key of the default instance. */
  type: string;
  /** What enables an instance: its credential (cloud) or its base URL (self-hosted). */
  enabledBy: 'api_key' | 'base_url';
  /** Environment names of the default instance; `<NAME>_API_KEY` / `<NAME>_BASE_URL` otherwise. */
  apiKeyEnv?: string;
  baseUrlEnv?: string;
  defaultBaseUrl?: string;
  /** Other keys read from the environment for the default instance (`api_version: <NAME>_API_VERSION`). */
  extraEnv?: Record<string, string>;
}

export interface ProviderInstanceConfig {
  /** The prefix of model ids. */
  name: string;
  type: string;
  apiKey: string | null;
  baseUrl: string;
  /** The entry's other keys (validated by the provider plugin). */
  options: Record<string, unknown>;
}

const SHARED_KEYS = new Set(['type', 'enabled', 'api_key', 'base_url']);

export function envName(prefix: string): string {
  return prefix.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

export function resolveProviderInstances(loaded: LoadedConfig, spec: ProviderEnvSpec): ProviderInstanceConfig[] {
  const { config, env } = loaded;
  const entries: Array<[string, ProviderEntry]> = Object.entries(config.providers).filter(([name, e]) => (e.type ?? name) === spec.type);
  // The default instance exists implicitly, so the environment alone can enable it.
  if (!(spec.type in config.providers)) entries.unshift([spec.type, {}]);
  const out: ProviderInstanceConfig[] = [];
  for (const [name, entry] of entries) {
    if (entry.enabled === false) continue;
    const isDefault = name === spec.type;
    const base = envName(name);
    const keyVar = isDefault && spec.apiKeyEnv ? spec.apiKeyEnv : `${base}_API_KEY`;
    const urlVar = isDefault && spec.baseUrlEnv ? spec.baseUrlEnv : `${base}_BASE_URL`;
    const apiKey = nonEmpty(env[keyVar]) ?? nonEmpty(entry.api_key);
    const baseUrl = nonEmpty(env[urlVar]) ?? nonEmpty(entry.base_url);
    const enabling = spec.enabledBy === 'api_key' ? apiKey : baseUrl;
    if (entry.enabled !== true && enabling === null) continue;
    const options: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entry)) if (!SHARED_KEYS.has(k)) options[k] = v;
    if (isDefault && spec.extraEnv) {
      for (const [key, variable] of Object.entries(spec.extraEnv)) {
        const v = nonEmpty(env[variable]);
        if (v !== null) options[key] = v;
      }
    }
    const url = baseUrl ?? spec.defaultBaseUrl;
    if (url === undefined) continue;
    out.push({ name, type: spec.type, apiKey, baseUrl: url.replace(/\/+$/, ''), options });
  }
  return out;
}

function nonEmpty(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}
