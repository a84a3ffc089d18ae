// An Anthropic provider from its endpoint description. Only `chat` is native: Anthropic has no
// embeddings and no compaction (the core answers 501), and the Responses API is derived from
// chat by the registry.
import type { UpstreamClient } from '../../core/http-client.js';
import type { Provider } from '../../core/provider.js';
import { chatHandler } from './chat.js';
import type { AnthropicEndpoint } from './endpoint.js';
import { listModels } from './models.js';

export function createAnthropicProvider(upstream: UpstreamClient, ep: AnthropicEndpoint): Provider {
  return {
    name: ep.name,
    type: 'anthropic',
    operations: Object.freeze({ chat: chatHandler(upstream, ep) }),
    listModels: listModels(upstream, ep),
    passthrough: { baseUrl: ep.baseUrl, authHeaders: ep.authHeaders },
  };
}
