// One Anthropic instance: where it is, how it authenticates, and its options. Every operation
// works from this description, built once at boot so the request path allocates no headers.
import type { ProviderInstanceConfig } from '../../core/provider-config.js';
import type { AnthropicInstanceOptions } from './options.js';

export interface AnthropicEndpoint {
  /** The provider prefix (for errors and logs). */
  name: string;
  /** Base URL without a trailing slash and without `/v1` (https://api.anthropic.com). */
  baseUrl: string;
  /** Sent on every call: credential, API version, content type. */
  headers: Readonly<Record<string, string>>;
  /** The credential headers alone: what replaces a client's credential on passthrough. */
  authHeaders: Readonly<Record<string, string>>;
  messagesUrl: string;
  modelsUrl: string;
  defaultMaxTokens: number;
}

export function anthropicEndpoint(instance: ProviderInstanceConfig, options: AnthropicInstanceOptions): AnthropicEndpoint {
  const authHeaders: Record<string, string> = { 'anthropic-version': options.anthropic_version };
  // `enabled: true` without a key is allowed (a proxy that adds it); Anthropic itself answers 401.
  if (instance.apiKey !== null) authHeaders['x-api-key'] = instance.apiKey;
  const baseUrl = instance.baseUrl.replace(/\/+$/, '');
  return {
    name: instance.name,
    baseUrl,
    headers: Object.freeze({ ...authHeaders, 'content-type': 'application/json', 'user-agent': 'sluice' }),
    authHeaders: Object.freeze(authHeaders),
    messagesUrl: `${baseUrl}/v1/messages`,
    modelsUrl: `${baseUrl}/v1/models`,
    defaultMaxTokens: options.default_max_tokens,
  };
}
