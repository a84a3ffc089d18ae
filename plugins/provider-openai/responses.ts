// Native Responses API (POST /responses) and its compaction endpoint (POST /responses/compact).
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler, Target } from '../../core/provider.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import { ResponsesPassthroughStream } from '../../core/stream/passthrough.js';
import type { CompactResponse, ResponseObject } from '../../core/types/responses.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { upstreamReasoning } from './reasoning.js';
import { serializeWith } from './request-body.js';
import { postJson, readJson } from './upstream-call.js';

/** The client's body with the model name, the reasoning level, and without a gateway-only field. */
function responsesPayload(ep: OpenAIEndpoint, body: Record<string, unknown>, target: Target, gatewayField: string | null): string {
  const fields: Record<string, unknown> = { model: target.model };
  // `provider` of the compact body is the gateway's routing hint (API-SPEC.md): it never goes upstream.
  if (gatewayField !== null) fields[gatewayField] = undefined;
  if (body['reasoning'] !== undefined) fields['reasoning'] = upstreamReasoning(ep, target, body['reasoning']);
  return serializeWith(body, fields);
}

export function responsesHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (ctx, target) => {
    const res = await postJson(upstream, ep, ctx, ep.url('/responses', target.model), responsesPayload(ep, ctx.body!, target, null));
    if (ctx.stream) return streamReply(res.body, new ResponsesPassthroughStream(ep.name, ep.usageFromResponses));
    const { raw, value } = await readJson<ResponseObject>(res);
    return jsonReply(value, value.usage ? ep.usageFromResponses(value.usage) : null, raw, res.statusCode);
  };
}

export function compactHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (ctx, target) => {
    const res = await postJson(upstream, ep, ctx, ep.url('/responses/compact', target.model), responsesPayload(ep, ctx.body!, target, 'provider'));
    const { raw, value } = await readJson<CompactResponse>(res);
    return jsonReply(value, value.usage ? ep.usageFromResponses(value.usage) : null, raw, res.statusCode);
  };
}
