// A Gemini provider instance: the operations it serves natively (chat, embeddings), model
// discovery and passthrough. Responses comes from the plugin that derives it from chat, and
// compaction has no Gemini counterpart (501).
import type { UpstreamClient } from '../../core/http-client.js';
import type { Provider } from '../../core/provider.js';
import { chatHandler } from './chat-handler.js';
import { embeddingsHandler } from './embeddings-handler.js';
import type { GeminiEndpoint } from './endpoint.js';
import { listModels } from './list-models.js';

export function createGeminiProvider(upstream: UpstreamClient, ep: GeminiEndpoint): Provider {
  return {
    name: ep.name,
    type: 'gemini',
    operations: Object.freeze({ chat: chatHandler(upstream, ep), embeddings: embeddingsHandler(upstream, ep) }),
    listModels: listModels(upstream, ep),
    passthrough: { baseUrl: ep.baseUrl, authHeaders: ep.authHeaders },
  };
}
