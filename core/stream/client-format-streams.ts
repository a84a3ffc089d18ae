// Translators for upstream streams that already speak the client's formats (chat chunks,
// Responses events). The relay hands them only the events it must read (usage, errors); each
// is parsed once, its usage reported, and its JSON text goes to the client unchanged. An error
// event in the client API's own shape (an `error` member) becomes the contract's error; a
// provider whose server writes errors some other way passes a reader of its own.
import { providerFailed, providerStatusError } from '../errors.js';
import type { GatewayError } from '../errors.js';
import type { ChatCompletionChunk, ChatUsage } from '../types/chat.js';
import type { ResponsesStreamEvent, ResponsesUsage } from '../types/responses.js';
import type { Usage } from '../types/usage.js';
import { usageFromChat, usageFromResponses, withServiceTier } from '../usage-mapping.js';
import { ChatFold } from './chat-fold.js';
import type { PassthroughTranslator, SseEvent, StreamSink, StreamTranslator } from './translator.js';

/** The error an event stands for, or null when it is no error. */
export type StreamErrorReader = (event: Record<string, unknown>, provider: string) => GatewayError | null;

/** An `error` member, a string or `{message, code, status}`: the client API's own error shape. */
export function errorMember(event: Record<string, unknown>, provider: string): GatewayError | null {
  const err = event['error'] as { message?: unknown; code?: unknown; status?: unknown } | string | null | undefined;
  if (err === undefined || err === null) return null;
  const message = typeof err === 'string' ? err : typeof err.message === 'string' ? err.message : 'provider error in stream';
  const code = typeof err === 'object' && typeof err.code === 'string' ? err.code : null;
  const status = typeof err === 'object' && typeof err.status === 'number' ? err.status : 502;
  return providerStatusError(provider, status, message, code);
}

/** What both translators share: whose stream it is, how its usage maps, how its errors read. */
abstract class ClientFormatStream<U> {
  protected readonly provider: string;
  protected readonly mapUsage: (u: U) => Usage;
  readonly #errorOf: StreamErrorReader;

  constructor(provider: string, mapUsage: (u: U) => Usage, errorOf: StreamErrorReader) {
    this.provider = provider;
    this.mapUsage = mapUsage;
    this.#errorOf = errorOf;
  }

  /** The event's JSON object; throws the error it stands for, or a 502 when it is no object. */
  protected parse(data: string): Record<string, unknown> {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      throw this.malformed('a malformed stream event');
    }
    if (typeof value !== 'object' || value === null) throw this.malformed('a malformed stream event');
    const error = this.#errorOf(value as Record<string, unknown>, this.provider);
    if (error !== null) throw error;
    return value as Record<string, unknown>;
  }

  protected malformed(what: string): GatewayError {
    return providerFailed(this.provider, `provider '${this.provider}' sent ${what}`);
  }
}

// The chunks a relay must read on the way: those with a usage object (the usage-only chunk is
// hidden from a client that did not ask for it; its numbers price the call) or an "error" string,
// as a member or as a value. A token that is the word costs a parse, nothing more.
const CHAT_WATCHED = /"(?:usage"\s*:\s*\{|error")/g;

export class ChatChunkStream extends ClientFormatStream<ChatUsage> implements PassthroughTranslator<ChatCompletionChunk> {
  readonly watched = CHAT_WATCHED;

  constructor(provider: string, mapUsage: (u: ChatUsage) => Usage = usageFromChat, errorOf: StreamErrorReader = errorMember) {
    super(provider, mapUsage, errorOf);
  }

  /** What folds the stream's bytes into its completion; a provider with a faster reader of its own chunks overrides it. */
  fold(): ChatFold {
    return new ChatFold();
  }

  onEvent(event: SseEvent, sink: StreamSink<ChatCompletionChunk>): void {
    if (event.data === '[DONE]') return;
    const chunk = this.parse(event.data) as unknown as ChatCompletionChunk;
    if (!Array.isArray(chunk.choices)) throw this.malformed('a stream event that is not a chat chunk');
    if (chunk.usage) sink.usage(withServiceTier(this.mapUsage(chunk.usage), (chunk as { service_tier?: unknown }).service_tier));
    sink.emit(chunk, event.data);
  }

  onEnd(): void {}
}

export class ResponsesEventStream extends ClientFormatStream<ResponsesUsage> implements StreamTranslator<ResponsesStreamEvent> {
  constructor(provider: string, mapUsage: (u: ResponsesUsage) => Usage = usageFromResponses, errorOf: StreamErrorReader = errorMember) {
    super(provider, mapUsage, errorOf);
  }

  onEvent(event: SseEvent, sink: StreamSink<ResponsesStreamEvent>): void {
    if (event.data === '[DONE]') return;
    const value = this.parse(event.data) as unknown as ResponsesStreamEvent;
    if (typeof value.type !== 'string') throw this.malformed('a stream event without a type');
    if (value.type === 'error') {
      const code = typeof value['code'] === 'string' ? value['code'] : null;
      throw providerStatusError(this.provider, 502, typeof value['message'] === 'string' ? value['message'] : 'provider error in stream', code);
    }
    const usage = value.response?.usage;
    if (usage) sink.usage(withServiceTier(this.mapUsage(usage), value.response?.['service_tier']));
    sink.emit(value, event.data);
  }

  onEnd(): void {}
}
