// Chat Completions on Gemini: the OpenAI request is translated to generateContent (or
// streamGenerateContent?alt=sse for streams), and the answer back to OpenAI's shapes.
// The model id clients see in answers is the one they asked for (`gemini/gemini-2.5-flash`).
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler } from '../../core/provider.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import { isJsonAnswer, replayedChat } from '../../core/stream/json-answer.js';
import type { ChatRequest } from '../../core/types/chat.js';
import { modelMethodUrl, type GeminiEndpoint } from './endpoint.js';
import { toGeminiRequest } from './request.js';
import { fromGeminiResponse } from './response.js';
import { GeminiChatStream } from './stream.js';
import { geminiServiceTier } from './usage.js';
import type { GeminiGenerateResponse } from './types.js';
import { callGemini, readGeminiJson } from './upstream-call.js';

export function chatHandler(upstream: UpstreamClient, ep: GeminiEndpoint): OperationHandler {
  return async (request, target) => {
    const payload = JSON.stringify(toGeminiRequest(request.body as ChatRequest, target.model));
    const url = request.stream ? `${modelMethodUrl(ep, target, 'streamGenerateContent')}?alt=sse` : modelMethodUrl(ep, target, 'generateContent');
    const res = await callGemini(upstream, ep, url, payload, request.signal, request.meter);
    const created = Math.floor(Date.now() / 1000);
    const serviceTier = geminiServiceTier(res.headers['x-gemini-service-tier']);
    // Gemini reports usage on every stream event, so nothing extra is asked for: the stream's
    // usage chunk is always built and the relay shows it only to clients that asked.
    if (request.stream && !isJsonAnswer(res.headers)) return streamReply(res.body, new GeminiChatStream({ modelId: target.id, created, provider: ep.name, serviceTier }));
    const answer = await readGeminiJson<GeminiGenerateResponse>(res);
    // Gemini's responseId, as the stream uses it, so a call can be found in Google's records.
    const { completion, usage } = fromGeminiResponse(answer, target.id, answer.responseId ?? `chatcmpl-${request.id}`, created);
    if (serviceTier !== undefined) usage.service_tier ??= serviceTier;
    return request.stream ? replayedChat(ep.name, completion, usage) : jsonReply(completion, usage);
  };
}
