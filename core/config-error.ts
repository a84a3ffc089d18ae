// Startup errors: one line each, with a stable SLUICE_ERR_* code (listed in docs/errors.md),
// the file, the key and what was expected.
import type { ErrorObject } from 'ajv';

export type StartupErrorCode =
  | 'SLUICE_ERR_CONFIG_NOT_FOUND'
  | 'SLUICE_ERR_CONFIG_UNREADABLE'
  | 'SLUICE_ERR_CONFIG_PARSE'
  | 'SLUICE_ERR_CONFIG_INVALID'
  | 'SLUICE_ERR_PLUGIN_NOT_FOUND'
  | 'SLUICE_ERR_PLUGIN_INVALID'
  | 'SLUICE_ERR_PLUGIN_DEPENDENCY'
  | 'SLUICE_ERR_PLUGIN_SETUP'
  | 'SLUICE_ERR_DATA_DIR';

const BRAND = Symbol.for('sluice.startup-error');

export class StartupError extends Error {
  readonly [BRAND] = true;
  readonly code: StartupErrorCode;

  constructor(code: StartupErrorCode, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'StartupError';
    this.code = code;
  }

  override toString(): string {
    return `${this.code} ${this.message}`;
  }
}

/** By brand, not instanceof: a plugin loaded as ESM may carry its own copy of the core. */
export function isStartupError(err: unknown): err is StartupError {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
}

/** `/plugins/2/options/x` as `plugins[2].options.x`, the way an operator reads YAML keys. */
export function jsonPointerToKey(pointer: string): string {
  let key = '';
  for (const part of pointer.split('/').slice(1)) {
    const name = part.replace(/~1/g, '/').replace(/~0/g, '~');
    key += /^\d+$/.test(name) ? `[${name}]` : key === '' ? name : `.${name}`;
  }
  return key;
}

/** An ajv error as "what was expected": ajv's own enum message does not list the values. */
export function schemaErrorMessage(err: ErrorObject): string {
  if (err.keyword === 'enum') return `must be one of ${(err.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (err.keyword === 'additionalProperties') return `${err.message ?? 'invalid'} '${String(err.params['additionalProperty'])}'`;
  return err.message ?? 'invalid';
}
