// POST /chat/completions on an OpenAI-style upstream. The response is forwarded as the
// provider's own bytes; streams go through the pass-through translator.
import type { RequestContext } from '../../core/context.js';
import type { UpstreamClient } from '../../core/http-client.js';
import { parseProviderJson } from '../../core/upstream-body.js';
import type { OperationHandler, Target } from '../../core/provider.js';
import { streamReply } from '../../core/reply.js';
import { isJsonAnswer, replayedChat } from '../../core/stream/json-answer.js';
import { ChatPassthroughStream } from '../../core/stream/passthrough.js';
import type { ChatUsage } from '../../core/types/chat.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { upstreamEffort } from './reasoning.js';
import { serializeWith, splicedBody, streamOptionsWithUsage } from './request-body.js';
import type { UsageOption } from './request-body.js';
import { forwardedReply, postJson, readRaw, usageMember, withBodyServiceTier } from './upstream-call.js';

export function chatHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (ctx, target) => {
    const payload = splicedPayload(ctx, ep, target) ?? serializedPayload(ctx, ep, target);
    const res = await postJson(upstream, ep, ctx, ep.url('/chat/completions', target.model), payload);
    if (ctx.stream && !isJsonAnswer(res.headers)) return streamReply(res.body, new ChatPassthroughStream(ep.name, ep.usageFromChat));
    const raw = await readRaw(res);
    const usage = usageMember<ChatUsage>(ep.name, raw);
    const neutral = usage ? withBodyServiceTier(ep.usageFromChat(usage), raw) : null;
    if (ctx.stream) return replayedChat(ep.name, parseProviderJson(ep.name, raw), neutral);
    return forwardedReply(raw, neutral, res.statusCode);
  };
}

function serializedPayload(ctx: RequestContext, ep: OpenAIEndpoint, target: Target): string {
  const body = ctx.body!;
  const fields: Record<string, unknown> = { model: target.model };
  if (ctx.stream) fields['stream_options'] = ep.streamUsageOption ? streamOptionsWithUsage(body['stream_options']) : undefined;
  if (body['reasoning_effort'] !== undefined) fields['reasoning_effort'] = upstreamEffort(ep, target, body['reasoning_effort']);
  return serializeWith(body, fields);
}

/** The client's bytes with the model swapped, when serializedPayload would change nothing else. */
function splicedPayload(ctx: RequestContext, ep: OpenAIEndpoint, target: Target): Buffer | null {
  const raw = ctx.rawBody;
  // Only the chat route's body was parsed from ctx.rawBody: the Responses adapter calls this
  // handler with a chat body of its own making in place of the client's Responses body.
  if (raw === null || ctx.route.operation !== 'chat') return null;
  const body = ctx.body!;
  const effort = body['reasoning_effort'];
  if (effort !== undefined && upstreamEffort(ep, target, effort) !== effort) return null;
  let usage: UsageOption = 'leave';
  if (ctx.stream) {
    const options = body['stream_options'];
    if (options === undefined) usage = ep.streamUsageOption ? 'add' : 'leave';
    else if (ep.streamUsageOption && streamOptionsWithUsage(options) === options) usage = 'client';
    else return null;
  }
  return splicedBody(raw, body['model'], target.model, usage);
}
