// POST /chat/completions on an OpenAI-style upstream. The response is forwarded as the
// provider's own bytes; streams go through the pass-through translator.
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler } from '../../core/provider.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import { ChatPassthroughStream } from '../../core/stream/passthrough.js';
import type { ChatUsage } from '../../core/types/chat.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { upstreamEffort } from './reasoning.js';
import { serializeWith, streamOptionsWithUsage } from './request-body.js';
import { postJson, readRaw, usageMember } from './upstream-call.js';

export function chatHandler(upstream: UpstreamClient, ep: OpenAIEndpoint): OperationHandler {
  return async (ctx, target) => {
    const body = ctx.body!;
    const fields: Record<string, unknown> = { model: target.model };
    if (ctx.stream) fields['stream_options'] = ep.streamUsageOption ? streamOptionsWithUsage(body['stream_options']) : undefined;
    if (body['reasoning_effort'] !== undefined) fields['reasoning_effort'] = upstreamEffort(ep, target, body['reasoning_effort']);
    const payload = serializeWith(body, fields);
    const res = await postJson(upstream, ep, ctx, ep.url('/chat/completions', target.model), payload);
    if (ctx.stream) return streamReply(res.body, new ChatPassthroughStream(ep.name, ep.usageFromChat));
    const raw = await readRaw(res);
    const usage = usageMember<ChatUsage>(ep.name, raw);
    return jsonReply(undefined, usage ? ep.usageFromChat(usage) : null, raw, res.statusCode);
  };
}
