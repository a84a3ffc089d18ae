// Embeddings on Gemini: batchEmbedContents, one call per 100 inputs, made one after the other
// (parallel calls would spend a quota's requests-per-minute in a burst). The vectors come back
// in input order, as floats or as base64 (the openai SDK's default); usage is estimated.
import { providerFailed } from '../../core/errors.js';
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler } from '../../core/provider.js';
import { jsonReply } from '../../core/reply.js';
import type { EmbeddingsRequest } from '../../core/types/embeddings.js';
import { splitBatches } from './embed-batches.js';
import { estimateEmbedUsage } from './embed-usage.js';
import { embeddingsOf, fromGeminiEmbedResponse, toGeminiEmbedRequest } from './embeddings.js';
import { modelMethodUrl, type GeminiEndpoint } from './endpoint.js';
import type { GeminiContentEmbedding, GeminiEmbedResponse } from './types.js';
import { callGemini, readGeminiJson } from './upstream-call.js';

export function embeddingsHandler(upstream: UpstreamClient, ep: GeminiEndpoint): OperationHandler {
  return async (request, target) => {
    const req = request.body as EmbeddingsRequest;
    const embed = toGeminiEmbedRequest(req, target.model);
    const url = modelMethodUrl(ep, target, 'batchEmbedContents');
    const vectors: GeminiContentEmbedding[] = [];
    for (const batch of splitBatches(embed)) {
      const res = await callGemini(upstream, ep, url, JSON.stringify(batch), request.signal, request.meter);
      const got = embeddingsOf(await readGeminiJson<GeminiEmbedResponse>(res));
      // A short answer would shift every later vector onto the wrong input.
      if (got.length !== batch.requests.length) {
        throw providerFailed(ep.name, `provider '${ep.name}' answered ${got.length} embeddings for ${batch.requests.length} inputs`);
      }
      vectors.push(...got);
    }
    const usage = estimateEmbedUsage(embed);
    const encoding = req.encoding_format === 'base64' ? 'base64' : 'float';
    return jsonReply(fromGeminiEmbedResponse({ embeddings: vectors }, target.id, encoding, usage), usage);
  };
}
