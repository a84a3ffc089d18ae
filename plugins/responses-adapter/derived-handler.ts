// The `responses` operation of a provider that has only `chat`: the client's Responses body
// is translated into a chat request, the provider's own chat handler answers it, and its
// reply is translated back (a JSON completion, or a chat stream wrapped so that it streams
// Responses events).
import { providerFailed } from '../../core/errors.js';
import type { OperationHandler } from '../../core/provider.js';
import { jsonReply, replyBody, streamReply } from '../../core/reply.js';
import type { JsonReply, StreamReply } from '../../core/reply.js';
import type { ChatCompletion, ChatRequest } from '../../core/types/chat.js';
import type { ResponsesRequest } from '../../core/types/responses.js';
import { ChatStreamToResponses } from './chat-stream-to-responses.js';
import { fromChatCompletion } from './from-chat-completion.js';
import { newResponseToken, nowSeconds } from './ids.js';
import { toChatRequest } from './to-chat-request.js';

export function deriveResponses(chat: OperationHandler): OperationHandler {
  return async (request, target) => {
    const responses = request.body as unknown as ResponsesRequest;
    // The chat handler is asked a chat request of the adapter's making; the client's stays as it came.
    const chatRequest = { ...request, operation: 'chat', body: toChatRequest(responses) as unknown as Record<string, unknown>, raw: null };
    const reply = await chat(chatRequest, target);
    const translated = translateReply(reply, responses, target.provider.name);
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

function asCompletion(provider: string, body: unknown): ChatCompletion {
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) throw providerFailed(provider, `provider '${provider}' answered the chat request with something that is not a chat completion`);
  return body as ChatCompletion;
}
