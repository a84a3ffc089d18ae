// POST /embeddings, forwarded as is (float or base64 is the provider's business).
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler } from '../../core/provider.js';
import type { EmbeddingsResponse } from '../../core/types/embeddings.js';
import { emptyUsage } from '../../core/types/usage.js';
import type { Usage } from '../../core/types/usage.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { serializeWith } from './request-body.js';
import { forwardedReply, postJson, readRaw, usageMember } from './upstream-call.js';

export function embeddingsUsage(u: EmbeddingsResponse['usage'] | undefined): Usage | null {
  if (!u) return null;
  const usage = emptyUsage();
  usage.input_tokens = u.prompt_tokens;
  usage.total_tokens = u.total_tokens || u.prompt_tokens;
  usage.raw = u;
  return usage;
}

export function embeddingsHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (request, target) => {
    const payload = serializeWith(request.body, { model: target.model });
    const res = await postJson(upstream, ep, request, ep.url('/embeddings', target.model), payload);
    const raw = await readRaw(res, ep);
    return forwardedReply(raw, embeddingsUsage(usageMember<EmbeddingsResponse['usage']>(ep.name, raw) ?? undefined), res.statusCode);
  };
}
