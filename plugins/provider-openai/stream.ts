// Streams of OpenAI-style servers already speak the client's formats, so the core's
// client-format translators read them. What this adds: the error vLLM (and servers built like
// it) writes into a stream, `{"object":"error","message":…,"type":…,"code":400}`, beside the
// `error` member OpenAI and OpenRouter write; and a fold that reads OpenAI's own serialisation
// of chat chunks without parsing them (chat-fold.ts).
import type { GatewayError } from '../../core/errors.js';
import { providerStatusError } from '../../core/errors.js';
import { ChatChunkStream, ResponsesEventStream, errorMember } from '../../core/stream/client-format-streams.js';
import { OpenAIChatFold } from './chat-fold.js';
import type { OpenAIEndpoint } from './endpoint.js';

export function streamError(event: Record<string, unknown>, provider: string): GatewayError | null {
  const member = errorMember(event, provider);
  if (member !== null || event['object'] !== 'error') return member;
  const code = event['code'];
  const status = typeof code === 'number' && code >= 400 && code < 600 ? code : 502;
  const message = event['message'];
  return providerStatusError(provider, status, typeof message === 'string' ? message : 'provider error in stream', null);
}

class OpenAIChatStream extends ChatChunkStream {
  override fold(): OpenAIChatFold {
    return new OpenAIChatFold();
  }
}

export function chatStream(ep: OpenAIEndpoint): ChatChunkStream {
  return new OpenAIChatStream(ep.name, ep.usageFromChat, streamError);
}

export function responsesStream(ep: OpenAIEndpoint): ResponsesEventStream {
  return new ResponsesEventStream(ep.name, ep.usageFromResponses, streamError);
}
