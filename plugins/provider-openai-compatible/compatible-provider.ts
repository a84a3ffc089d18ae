// A row and one of its instances become a provider: provider-openai's endpoint, handlers and
// model listing with the row's differences filled in.
import type { UpstreamClient } from '../../core/http-client.js';
import type { Provider } from '../../core/provider.js';
import type { ProviderInstanceConfig } from '../../core/provider-config.js';
import { createOpenAIProvider, openAIEndpoint } from '../provider-openai/provider.js';
import type { CompatibleRow } from './row.js';

/** The levels OpenAI-compatible servers commonly take (gpt-oss, Qwen, DeepSeek via vLLM). */
const COMPATIBLE_REASONING_EFFORTS: readonly string[] = ['low', 'medium', 'high'];

export function compatibleProvider(upstream: UpstreamClient, row: CompatibleRow, instance: ProviderInstanceConfig): Provider {
  const ep = openAIEndpoint({
    name: instance.name,
    type: row.type,
    baseUrl: instance.baseUrl,
    apiKey: instance.apiKey,
    extraHeaders: row.headers?.(instance.options),
    streamUsageOption: row.streamUsageOption,
    usageFromChat: row.usageFromChat,
    usageFromResponses: row.usageFromResponses,
    reasoningEfforts: row.reasoningEfforts ?? COMPATIBLE_REASONING_EFFORTS,
  });
  return createOpenAIProvider(upstream, ep, row.operations);
}
