// Configuration: the shipped defaults (config/defaults.yaml), the operator's YAML file over
// them, `${VAR}` / `${VAR:-default}` expanded inside strings, then the documented environment
// variables over both. The result is validated once; a bad value stops startup with one line.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { LineCounter, parseDocument } from 'yaml';
import { StartupError, jsonPointerToKey, schemaErrorMessage } from './config-error.js';
import { coreConfigSchema } from './config-schema.js';
import type { LogFormat } from './logger.js';

export interface PluginEntry {
  name?: string;
  path?: string;
  package?: string;
  enabled?: boolean;
  options?: unknown;
}

/** A provider instance as written in `providers:`; plugin-specific keys are kept as they are. */
export interface ProviderEntry {
  type?: string;
  enabled?: boolean;
  api_key?: string | null;
  base_url?: string | null;
  [key: string]: unknown;
}

export interface UpstreamOptions {
  connect_timeout_ms: number;
  first_byte_timeout_ms: number;
  idle_timeout_ms: number;
  /** Null: no cap, a connection per concurrent call (docs/configuration.md says why). */
  connections_per_origin: number | null;
  /** With a cap: how long a call may wait for a free connection before it gets 503. */
  queue_timeout_ms: number;
  /** The largest non-streamed answer read into memory; a larger one is a 502. */
  max_buffered_answer_bytes: number;
}

export interface GatewayConfig {
  server: { host: string; port: number; body_limit_bytes: number; shutdown_timeout_ms: number; keep_alive_timeout_ms?: number; drain_grace_ms?: number };
  data_dir: string;
  master_key: string | null;
  upstream: UpstreamOptions;
  log: { level: 'error' | 'warn' | 'info' | 'debug'; format: LogFormat; access: boolean };
  providers: Record<string, ProviderEntry>;
  plugins: Array<string | PluginEntry>;
}

export interface LoadedConfig {
  config: GatewayConfig;
  /** The operator's file as named in messages (or '<defaults>' when there is none). */
  source: string;
  /** Where relative plugin paths are resolved from. */
  baseDir: string;
  /** The environment the config was expanded with (providers read their variables from it). */
  env: Readonly<Record<string, string | undefined>>;
}

/** Where this module's tree starts: the repository (sources, run by tsx) or dist/ (compiled). */
export const CODE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The package root (config/, the catalog): the nearest folder with a package.json above the code. */
export const REPO_ROOT = packageRoot(CODE_ROOT);

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}
const DEFAULTS_PATH = resolve(REPO_ROOT, 'config/defaults.yaml');
const DEFAULT_CONFIG_PATH = 'config/gateway.yaml';

/** Documented environment variables that override a config key. */
const ENV_OVERRIDES: ReadonlyArray<[string, (c: GatewayConfig, v: string) => void]> = [
  ['PORT', (c, v) => { c.server.port = toInteger('PORT', v); }],
  ['HOST', (c, v) => { c.server.host = v; }],
  ['GATEWAY_DATA_DIR', (c, v) => { c.data_dir = v; }],
  ['GATEWAY_MASTER_KEY', (c, v) => { c.master_key = v; }],
  ['LOG_LEVEL', (c, v) => { c.log.level = v as GatewayConfig['log']['level']; }],
  ['LOG_FORMAT', (c, v) => { c.log.format = v as LogFormat; }],
];

const validateCore = new Ajv({ allErrors: false, coerceTypes: true, useDefaults: false }).compile(coreConfigSchema);

export interface LoadOptions {
  /** The operator's file; defaults to GATEWAY_CONFIG, then config/gateway.yaml. */
  path?: string;
  env?: Record<string, string | undefined>;
  /** An in-memory config used instead of a file (tests, embedding). */
  overrides?: Record<string, unknown>;
}

export function loadConfig(options: LoadOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const defaults = readYaml(DEFAULTS_PATH, DEFAULTS_PATH, env);
  let source = '<defaults>';
  let baseDir = process.cwd();
  let operator: Record<string, unknown> = {};
  // An empty variable is an unset one, as for every other variable the config reads.
  const explicit = options.path ?? (env['GATEWAY_CONFIG'] || undefined);
  if (options.overrides) {
    operator = expand(options.overrides, env) as Record<string, unknown>;
    source = '<inline config>';
  } else {
    const path = explicit ?? DEFAULT_CONFIG_PATH;
    const absolute = resolve(process.cwd(), path);
    if (existsSync(absolute)) {
      operator = readYaml(absolute, path, env);
      source = path;
      baseDir = dirname(absolute);
    } else if (explicit !== undefined) {
      throw new StartupError('SLUICE_ERR_CONFIG_NOT_FOUND', `${path}: config file not found (GATEWAY_CONFIG)`);
    }
  }
  const merged = mergeConfig(defaults, operator) as unknown as GatewayConfig;
  for (const [name, apply] of ENV_OVERRIDES) {
    const value = env[name];
    if (value !== undefined && value !== '') apply(merged, value);
  }
  if (merged.master_key === '') merged.master_key = null;
  const plugins: unknown[] = merged.plugins;
  if (!validateCore(merged)) {
    const errors = validateCore.errors!;
    let err = errors[0]!;
    const entry = /^\/plugins\/(\d+)$/.exec(err.instancePath);
    if (entry) {
      const problem = pluginEntryProblem(plugins[Number(entry[1])]);
      if (problem !== null) throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${source}: plugins[${entry[1]}]: ${problem}`);
      // ajv reports the failed "a plain name" branch first ("must be string"); the entry's own error is deeper.
      const first = err;
      err = errors.find((e) => e.instancePath.length > first.instancePath.length) ?? first;
    }
    const key = jsonPointerToKey(err.instancePath) || '(top level)';
    throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${source}: ${key}: ${schemaErrorMessage(err)}`);
  }
  return { config: merged, source, baseDir, env };
}

const ENTRY_KEYS: ReadonlySet<string> = new Set(['name', 'path', 'package', 'enabled', 'options']);

/** What is wrong with a plugin entry's shape, in words (ajv's oneOf report would say "must be string"). */
function pluginEntryProblem(entry: unknown): string | null {
  if (typeof entry === 'string') return null;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'must be a plugin name or an entry with one of name, path, package';
  const keys = Object.keys(entry);
  const unknown = keys.find((k) => !ENTRY_KEYS.has(k));
  if (unknown !== undefined) return `unknown key '${unknown}' (an entry has one of name, path, package, and optionally enabled, options)`;
  const sources = keys.filter((k) => k === 'name' || k === 'path' || k === 'package');
  if (sources.length === 0) return 'must have one of name, path, package';
  if (sources.length > 1) return `must have only one of name, path, package (has ${sources.join(', ')})`;
  return null;
}

function readYaml(absolute: string, shown: string, env: Record<string, string | undefined>): Record<string, unknown> {
  // Without prettyErrors the yaml package gives offsets only; the counter turns them into line:col.
  const lines = new LineCounter();
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (err) {
    // A directory, or a file the gateway's user may not read: the operator's to fix, not a bug.
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new StartupError('SLUICE_ERR_CONFIG_UNREADABLE', `${shown}: cannot read the config file (${code})`);
  }
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const pos = lines.linePos(e.pos[0]);
    throw new StartupError('SLUICE_ERR_CONFIG_PARSE', `${shown}${pos ? `:${pos.line}:${pos.col}` : ''}: ${e.message.split('\n')[0]}`);
  }
  const value: unknown = doc.toJS() ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${shown}: (top level): must be a mapping of keys`);
  }
  return expand(value, env) as Record<string, unknown>;
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}` inside every string; an unset variable without a default is ''. */
export function expand(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') {
    return value.includes('${') ? value.replace(VAR, (_m, name: string, fallback?: string) => {
      const v = env[name];
      return v !== undefined && v !== '' ? v : (fallback ?? '');
    }) : value;
  }
  if (Array.isArray(value)) return value.map((v) => expand(v, env));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expand(v, env);
    return out;
  }
  return value;
}

/** Mappings merge key by key; everything else (lists included) is replaced by the operator's value. */
export function mergeConfig(base: unknown, over: unknown): unknown {
  if (isMapping(base) && isMapping(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = k in base ? mergeConfig(base[k], v) : v;
    return out;
  }
  return over === undefined ? base : over;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toInteger(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `environment: ${name}: must be an integer, got '${value}'`);
  return n;
}
