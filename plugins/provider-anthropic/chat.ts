// Chat Completions on Anthropic: the OpenAI request translated to POST /v1/messages, the
// answer (whole or streamed) translated back. The model the client sees is the one Anthropic
// says answered (a dated snapshot), as the OpenAI path forwards OpenAI's own `model`.
import type { UpstreamClient } from '../../core/http-client.js';
import type { OperationHandler } from '../../core/provider.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import { isJsonAnswer, replayedChat } from '../../core/stream/json-answer.js';
import type { ChatRequest } from '../../core/types/chat.js';
import type { AnthropicEndpoint } from './endpoint.js';
import { isRecord } from './is-record.js';
import { toAnthropicRequest, type AnthropicRequestOptions } from './request.js';
import { fromAnthropicMessage } from './response.js';
import { AnthropicChatStream } from './stream.js';
import type { AnthropicMessage } from './types.js';
import { callAnthropic, readJson, type ExpectedBody } from './upstream-call.js';

const MESSAGE: ExpectedBody<AnthropicMessage> = {
  what: 'a message',
  is: (value): value is AnthropicMessage =>
    isRecord(value) &&
    value['type'] === 'message' &&
    Array.isArray(value['content']) &&
    isRecord(value['usage']) &&
    typeof value['usage']['input_tokens'] === 'number' &&
    typeof value['usage']['output_tokens'] === 'number',
};

/**
 * The catalog's output ceiling, when it has a usable one, bounds the thinking budget and the
 * default max_tokens: Anthropic rejects a max_tokens above what the model can emit.
 */
function requestOptions(ep: AnthropicEndpoint, ceiling: unknown): AnthropicRequestOptions {
  if (typeof ceiling !== 'number' || !Number.isInteger(ceiling) || ceiling < 1) return { defaultMaxTokens: ep.defaultMaxTokens };
  return { defaultMaxTokens: Math.min(ep.defaultMaxTokens, ceiling), maxOutputTokens: ceiling };
}

export function chatHandler(upstream: UpstreamClient, ep: AnthropicEndpoint): OperationHandler {
  return async (request, target) => {
    const upstreamBody = toAnthropicRequest(request.body as ChatRequest, target.model, requestOptions(ep, target.metadata?.max_output_tokens));
    const res = await callAnthropic(upstream, ep, 'POST', ep.messagesUrl, JSON.stringify(upstreamBody), request.signal, request.meter);
    const created = Math.floor(Date.now() / 1000);
    if (request.stream && !isJsonAnswer(res.headers)) return streamReply(res.body, new AnthropicChatStream({ created, provider: ep.name }));
    const message = await readJson(res, MESSAGE);
    const model = typeof message.model === 'string' && message.model !== '' ? message.model : target.model;
    const { completion, usage } = fromAnthropicMessage(message, model, created);
    return request.stream ? replayedChat(ep.name, completion, usage) : jsonReply(completion, usage);
  };
}
