// An instance's own keys under `providers.<name>` (all but type, enabled, api_key and base_url)
// checked against what its provider accepts, so that a misspelt key stops the boot with its path
// instead of being silently ignored. One validator per provider type, compiled once at boot.
import { Ajv } from 'ajv';
import { StartupError } from '../../core/config-error.js';
import type { ProviderInstanceConfig } from '../../core/provider-config.js';

const ajv = new Ajv({ allErrors: false, strict: false });

export type InstanceOptionsCheck = (source: string, instance: ProviderInstanceConfig) => void;

export function instanceOptionsCheck(properties: Record<string, object>): InstanceOptionsCheck {
  const validate = ajv.compile({ type: 'object', additionalProperties: false, properties });
  return (source, instance) => {
    if (validate(instance.options)) return;
    const err = validate.errors?.[0];
    const extra = err?.keyword === 'additionalProperties' ? (err.params as { additionalProperty?: string }).additionalProperty : undefined;
    const key = extra ?? (err?.instancePath ?? '').split('/').filter((p) => p !== '').join('.');
    const what = extra !== undefined ? `unknown key for a provider of type '${instance.type}'` : (err?.message ?? 'invalid');
    throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${source}: providers.${instance.name}${key ? '.' + key : ''}: ${what}`);
  };
}
