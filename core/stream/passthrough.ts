// Translators for upstream streams that already speak the client's format (OpenAI and every
// OpenAI-compatible server): each event is parsed once for usage and reassembly (chat chunks
// through the template of their stream, see chunk-template.ts), and its original JSON text is
// forwarded unchanged.
import { providerFailed, providerStatusError } from '../errors.js';
import type { ChatCompletionChunk, ChatUsage } from '../types/chat.js';
import type { ResponsesStreamEvent, ResponsesUsage } from '../types/responses.js';
import type { Usage } from '../types/usage.js';
import { usageFromChat, usageFromResponses, withServiceTier } from '../usage-mapping.js';
import { ChatFold } from './chat-fold.js';
import { ChunkTemplate } from './chunk-template.js';
import { LearningBudget } from './learning-budget.js';
import type { PassthroughTranslator, SseEvent, StreamSink, StreamTranslator } from './translator.js';

interface UpstreamErrorPayload {
  error?: { message?: unknown; code?: unknown; type?: unknown; status?: unknown } | string;
  /** vLLM's error shape: `{"object":"error","message":…,"type":…,"code":400}`. */
  object?: unknown;
  message?: unknown;
  code?: unknown;
}

function parseEvent(provider: string, data: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw providerFailed(provider, `provider '${provider}' sent a malformed stream event`);
  }
  if (typeof value !== 'object' || value === null) throw providerFailed(provider, `provider '${provider}' sent a malformed stream event`);
  const err = (value as UpstreamErrorPayload).error;
  if (err !== undefined && err !== null) {
    const message = typeof err === 'string' ? err : typeof err.message === 'string' ? err.message : 'provider error in stream';
    const code = typeof err === 'object' && typeof err.code === 'string' ? err.code : null;
    const status = typeof err === 'object' && typeof err.status === 'number' ? err.status : 502;
    throw providerStatusError(provider, status, message, code);
  }
  const payload = value as UpstreamErrorPayload;
  if (payload.object === 'error') {
    const status = typeof payload.code === 'number' && payload.code >= 400 && payload.code < 600 ? payload.code : 502;
    throw providerStatusError(provider, status, typeof payload.message === 'string' ? payload.message : 'provider error in stream', null);
  }
  return value as Record<string, unknown>;
}

// The chunks a relay must read on the way: those with a usage object (the usage-only chunk is
// hidden from a client that did not ask for it; its numbers price the call) or an "error" string,
// as a member (OpenAI, OpenRouter) or a value (vLLM's `"object":"error"`). A token that is the
// word costs a parse, nothing more.
const CHAT_WATCHED = /"(?:usage"\s*:\s*\{|error")/g;

export class ChatPassthroughStream implements PassthroughTranslator<ChatCompletionChunk> {
  readonly watched = CHAT_WATCHED;
  readonly #provider: string;
  readonly #mapUsage: (u: ChatUsage) => Usage;
  #template: ChunkTemplate | null = null;
  readonly #budget = new LearningBudget();

  constructor(provider: string, mapUsage: (u: ChatUsage) => Usage = usageFromChat) {
    this.#provider = provider;
    this.#mapUsage = mapUsage;
  }

  fold(): ChatFold {
    return new ChatFold();
  }

  onEvent(event: SseEvent, sink: StreamSink<ChatCompletionChunk>): void {
    const data = event.data;
    if (data === '[DONE]') return;
    let chunk = this.#template === null ? null : this.#template.parse(data);
    if (chunk !== null) {
      this.#budget.hit();
    } else {
      chunk = parseEvent(this.#provider, data) as ChatCompletionChunk;
      if (!Array.isArray(chunk.choices)) throw providerFailed(this.#provider, `provider '${this.#provider}' sent a stream event that is not a chat chunk`);
      if (this.#budget.spendOn(chunk)) this.#template = ChunkTemplate.learn(data) ?? this.#template;
    }
    if (chunk.usage) sink.usage(withServiceTier(this.#mapUsage(chunk.usage), (chunk as { service_tier?: unknown }).service_tier));
    sink.emit(chunk, event.data);
  }

  onEnd(): void {}
}

export class ResponsesPassthroughStream implements StreamTranslator<ResponsesStreamEvent> {
  readonly #provider: string;
  readonly #mapUsage: (u: ResponsesUsage) => Usage;

  constructor(provider: string, mapUsage: (u: ResponsesUsage) => Usage = usageFromResponses) {
    this.#provider = provider;
    this.#mapUsage = mapUsage;
  }

  onEvent(event: SseEvent, sink: StreamSink<ResponsesStreamEvent>): void {
    if (event.data === '[DONE]') return;
    const value = parseEvent(this.#provider, event.data) as ResponsesStreamEvent;
    if (typeof value.type !== 'string') throw providerFailed(this.#provider, `provider '${this.#provider}' sent a stream event without a type`);
    if (value.type === 'error') {
      const code = typeof value['code'] === 'string' ? value['code'] : null;
      throw providerStatusError(this.#provider, 502, typeof value['message'] === 'string' ? value['message'] : 'provider error in stream', code);
    }
    const usage = value.response?.usage;
    if (usage) sink.usage(withServiceTier(this.#mapUsage(usage), value.response?.['service_tier']));
    sink.emit(value, event.data);
  }

  onEnd(): void {}
}
