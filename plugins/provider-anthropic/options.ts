// The keys of `providers.<name>` an Anthropic instance understands beyond the shared ones
// (type, enabled, api_key, base_url). They are checked once at boot: a misspelt key must stop
// the gateway rather than silently leave a default in place (docs/providers/anthropic.md).
import { Ajv } from 'ajv';
import { StartupError, jsonPointerToKey } from '../../core/config-error.js';

export interface AnthropicInstanceOptions {
  /** max_tokens when the client sent none: Anthropic requires the field, OpenAI clients often omit it. */
  default_max_tokens: number;
  /** The `anthropic-version` header; the translators are written against 2023-06-01. */
  anthropic_version: string;
}

export const DEFAULT_MAX_TOKENS = 4096;
export const ANTHROPIC_VERSION = '2023-06-01';

const schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    default_max_tokens: { type: 'integer', minimum: 1, default: DEFAULT_MAX_TOKENS },
    anthropic_version: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', default: ANTHROPIC_VERSION },
  },
} as const;

const validate = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: false, strict: false }).compile<AnthropicInstanceOptions>(schema);

/**
 * The instance's options with defaults applied, or a SLUICE_ERR_CONFIG_INVALID naming the key.
 * `raw` is the instance's own object (built per instance at boot), so filling in defaults is safe.
 */
export function anthropicOptions(source: string, instance: string, raw: Record<string, unknown>): AnthropicInstanceOptions {
  if (validate(raw)) return raw;
  const err = validate.errors![0]!;
  const key = jsonPointerToKey(err.instancePath);
  const extra = err.keyword === 'additionalProperties' ? ` '${String(err.params['additionalProperty'])}'` : '';
  throw new StartupError('SLUICE_ERR_CONFIG_INVALID', `${source}: providers.${instance}${key ? `.${key}` : ''}: ${err.message ?? 'invalid'}${extra}`);
}
