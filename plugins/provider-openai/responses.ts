// Native Responses API (POST /responses) and its compaction endpoint (POST /responses/compact).
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler, Target } from '../../core/provider.js';
import { streamReply } from '../../core/reply.js';
import type { JsonReply } from '../../core/reply.js';
import { isJsonAnswer, notReplayable, replayedResponse } from '../../core/stream/json-answer.js';
import type { ResponsesUsage } from '../../core/types/responses.js';
import type { Usage } from '../../core/types/usage.js';
import { parseProviderJson } from '../../core/upstream-body.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { upstreamReasoning } from './reasoning.js';
import { serializeWith } from './request-body.js';
import { responsesStream } from './stream.js';
import { forwardedReply, postJson, readRaw, usageMember, withBodyServiceTier } from './upstream-call.js';

/** The client's body with the model name, the reasoning level, and without a gateway-only field. */
function responsesPayload(ep: OpenAIEndpoint, body: Readonly<Record<string, unknown>>, target: Target, gatewayField: string | null): string {
  const fields: Record<string, unknown> = { model: target.model };
  // `provider` of the compact body is the gateway's routing hint (docs/api.md): it never goes upstream.
  if (gatewayField !== null) fields[gatewayField] = undefined;
  if (body['reasoning'] !== undefined) fields['reasoning'] = upstreamReasoning(ep, target, body['reasoning']);
  return serializeWith(body, fields);
}

/** A Responses-shaped answer forwarded as its bytes, with its usage read from them. */
function responsesReply(ep: OpenAIEndpoint, raw: Buffer, status: number): JsonReply {
  return forwardedReply(raw, responsesUsage(ep, raw), status);
}

function responsesUsage(ep: OpenAIEndpoint, raw: Buffer): Usage | null {
  const usage = usageMember<ResponsesUsage>(ep.name, raw);
  return usage ? withBodyServiceTier(ep.usageFromResponses(usage), raw) : null;
}

export function responsesHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (request, target) => {
    const res = await postJson(upstream, ep, request, ep.url('/responses', target.model), responsesPayload(ep, request.body, target, null));
    if (!request.stream) return responsesReply(ep, await readRaw(res, ep), res.statusCode);
    const translator = responsesStream(ep);
    if (!isJsonAnswer(res.headers)) return streamReply(res.body, translator);
    const raw = await readRaw(res, ep);
    const replay = replayedResponse(parseProviderJson(ep.name, raw), translator);
    if (replay !== null) return replay;
    // No exact stream form: the client gets 502, and the call its provider billed is still metered.
    request.meter.billed = responsesUsage(ep, raw);
    throw notReplayable(ep.name);
  };
}

export function compactHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (request, target) => {
    const res = await postJson(upstream, ep, request, ep.url('/responses/compact', target.model), responsesPayload(ep, request.body, target, 'provider'));
    return responsesReply(ep, await readRaw(res, ep), res.statusCode);
  };
}
