// The `responses` operation of a provider that has only `chat`: the client's Responses body
// is translated into a chat request, the provider's own chat handler answers it, and its
// reply is translated back (a JSON completion, or a chat stream wrapped so that it streams
// Responses events).
import type { RequestContext } from '../../core/context.js';
import { badRequest, providerFailed } from '../../core/errors.js';
import type { OperationHandler, Target } from '../../core/provider.js';
import { jsonReply, replyBody, streamReply } from '../../core/reply.js';
import type { JsonReply, StreamReply } from '../../core/reply.js';
import type { ChatCompletion, ChatRequest } from '../../core/types/chat.js';
import type { ResponsesRequest } from '../../core/types/responses.js';
import { ChatStreamToResponses } from './chat-stream-to-responses.js';
import { fromChatCompletion } from './from-chat-completion.js';
import { newResponseToken, nowSeconds } from './ids.js';
import { toChatRequest } from './to-chat-request.js';

export function deriveResponses(chat: OperationHandler): OperationHandler {
  return async (ctx, target) => {
    if (ctx.body === null) throw badRequest('a JSON request body is required');
    const request = ctx.body as unknown as ResponsesRequest;
    const reply = await callChat(chat, ctx, target, toChatRequest(request));
    const translated = translateReply(reply, request, target.provider.name);
    translated.headers = reply.headers;
    return translated;
  };
}

function translateReply(reply: JsonReply | StreamReply, request: ResponsesRequest, provider: string): JsonReply | StreamReply {
  const token = newResponseToken();
  if (reply.kind === 'stream') return streamReply(reply.source, new ChatStreamToResponses(reply.translator, { request, token, provider }));
  const response = fromChatCompletion(asCompletion(provider, replyBody(reply)), request, reply.usage, { token, completedAt: nowSeconds() });
  return jsonReply(response, reply.usage, null, reply.status);
}

/**
 * Chat handlers read the request from ctx.body, so the chat request stands in for the
 * client's body during the call only. The audit log reads ctx.rawBody, and failover and the
 * rest of the pipeline see the client's body again once the handler has sent its request.
 */
async function callChat(chat: OperationHandler, ctx: RequestContext, target: Target, request: ChatRequest): Promise<JsonReply | StreamReply> {
  const body = ctx.body;
  ctx.body = request;
  try {
    return await chat(ctx, target);
  } finally {
    ctx.body = body;
  }
}

function asCompletion(provider: string, body: unknown): ChatCompletion {
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) throw providerFailed(provider, `provider '${provider}' answered the chat request with something that is not a chat completion`);
  return body as ChatCompletion;
}
