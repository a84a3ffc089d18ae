// A row and one of its instances become a provider: provider-openai's endpoint, handlers and
// model listing with the row's differences filled in.
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler, Provider } from '../../core/provider.js';
import type { ProviderInstanceConfig } from '../../core/provider-config.js';
import { createOpenAIProvider, openAIEndpoint } from '../provider-openai/provider.js';
import type { CompatibleRow, NativeOperation } from './row.js';

export function compatibleProvider(upstream: UpstreamClient, row: CompatibleRow, instance: ProviderInstanceConfig): Provider {
  const ep = openAIEndpoint({
    name: instance.name,
    type: row.type,
    baseUrl: instance.baseUrl,
    apiKey: instance.apiKey,
    extraHeaders: row.headers?.(instance.options),
    streamUsageOption: row.streamUsageOption,
    usageFromChat: row.usageFromChat,
  });
  const provider = createOpenAIProvider(upstream, ep, row.operations);
  const wrap = row.wrap;
  if (wrap === undefined) return provider;
  const operations: Record<string, OperationHandler | undefined> = { ...provider.operations };
  for (const op of Object.keys(wrap) as NativeOperation[]) {
    const handler = operations[op];
    if (handler !== undefined) operations[op] = wrap[op]!(handler);
  }
  return { ...provider, operations: Object.freeze(operations) };
}
