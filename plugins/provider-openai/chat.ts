// POST /chat/completions on an OpenAI-style upstream. The response is forwarded as the
// provider's own bytes; streams go through the chat chunk translator.
import type { UpstreamClient } from '../../core/http-client.js';
import { parseProviderJson } from '../../core/upstream-body.js';
import type { OperationHandler, OperationRequest, Target } from '../../core/provider.js';
import { streamReply } from '../../core/reply.js';
import { isJsonAnswer, replayedChat } from '../../core/stream/json-answer.js';
import type { ChatUsage } from '../../core/types/chat.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { upstreamEffort } from './reasoning.js';
import { serializeWith, streamOptionsWithUsage } from './request-body.js';
import { chatStream } from './stream.js';
import { forwardedReply, postJson, readRaw, usageMember, withBodyServiceTier } from './upstream-call.js';

export function chatHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (request, target) => {
    const res = await postJson(upstream, ep, request, ep.url('/chat/completions', target.model), chatPayload(request, ep, target));
    if (request.stream && !isJsonAnswer(res.headers)) return streamReply(res.body, chatStream(ep));
    const raw = await readRaw(res, ep);
    const usage = usageMember<ChatUsage>(ep.name, raw);
    const neutral = usage ? withBodyServiceTier(ep.usageFromChat(usage), raw) : null;
    if (request.stream) return replayedChat(ep.name, parseProviderJson(ep.name, raw), neutral);
    return forwardedReply(raw, neutral, res.statusCode);
  };
}

function chatPayload(request: OperationRequest, ep: OpenAIEndpoint, target: Target): string {
  const body = request.body;
  const fields: Record<string, unknown> = { model: target.model };
  if (request.stream) fields['stream_options'] = ep.streamUsageOption ? streamOptionsWithUsage(body['stream_options']) : undefined;
  if (body['reasoning_effort'] !== undefined) fields['reasoning_effort'] = upstreamEffort(ep, target, body['reasoning_effort']);
  return serializeWith(body, fields);
}
