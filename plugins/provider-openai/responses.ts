// Native Responses API (POST /responses) and its compaction endpoint (POST /responses/compact).
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler } from '../../core/provider.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import { ResponsesPassthroughStream } from '../../core/stream/passthrough.js';
import type { CompactResponse, ResponseObject } from '../../core/types/responses.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { serializeWith } from './request-body.js';
import { postJson, readJson } from './upstream-call.js';

export function responsesHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (ctx, target) => {
    const payload = serializeWith(ctx.body!, { model: target.model });
    const res = await postJson(upstream, ep, ctx, ep.url('/responses', target.model), payload);
    if (ctx.stream) return streamReply(res.body, new ResponsesPassthroughStream(ep.name, ep.usageFromResponses));
    const { raw, value } = await readJson<ResponseObject>(ep.name, res, ctx.abort.signal);
    return jsonReply(value, value.usage ? ep.usageFromResponses(value.usage) : null, raw, res.statusCode);
  };
}

export function compactHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (ctx, target) => {
    // `provider` is the gateway's routing hint (API-SPEC.md): it never goes upstream.
    const payload = serializeWith(ctx.body!, { model: target.model, provider: undefined });
    const res = await postJson(upstream, ep, ctx, ep.url('/responses/compact', target.model), payload);
    const { raw, value } = await readJson<CompactResponse>(ep.name, res, ctx.abort.signal);
    return jsonReply(value, value.usage ? ep.usageFromResponses(value.usage) : null, raw, res.statusCode);
  };
}
