// streamGenerateContent?alt=sse as OpenAI chat chunks. Every SSE `data:` is a whole
// GenerateContentResponse holding only the new parts; a function call always arrives whole in
// one event (Gemini does not stream arguments). Each event repeats usageMetadata with the
// counts so far, and the last one is authoritative.
import { providerFailed } from '../../core/errors.js';
import type { SseEvent, StreamSink, StreamTranslator } from '../../core/stream/translator.js';
import type { ChatChunkChoice, ChatCompletionChunk, ChatDelta, FinishReason, ToolCallDelta } from '../../core/types/chat.js';
import { fromGeminiError } from './errors.js';
import { mapFinishReason } from './finish-reason.js';
import { isRecord } from './is-record.js';
import { summarizeParts, type CalledFunction } from './parts-summary.js';
import { signatureCarrier, type SignatureCarrier } from './thought-signature.js';
import { CallIds } from './tool-calls.js';
import type { GeminiCandidate, GeminiGenerateResponse, GeminiUsageMetadata } from './types.js';
import { chatUsageFrom, usageFromGemini } from './usage.js';

export interface GeminiChatStreamInit {
  /** The model id the client should see. */
  modelId: string;
  created: number;
  /** The chunk id; Gemini's responseId when omitted. */
  id?: string;
  /** The provider name put on errors. */
  provider?: string;
  /** The service tier the answer's `x-gemini-service-tier` header names. */
  serviceTier?: string | undefined;
}

export class GeminiChatStream implements StreamTranslator<ChatCompletionChunk> {
  private readonly modelId: string;
  private readonly created: number;
  private readonly provider: string;
  private id: string;
  private readonly fixedId: boolean;
  private readonly ids = new CallIds();
  /** Choices whose first chunk (the one with the role) went out. */
  private readonly started = new Set<number>();
  /** Tool calls sent so far, per choice: the next call's `index`. */
  private readonly callCounts = new Map<number, number>();
  private usageMetadata: GeminiUsageMetadata | undefined;
  private readonly serviceTier: string | undefined;

  constructor(init: GeminiChatStreamInit) {
    this.serviceTier = init.serviceTier;
    this.modelId = init.modelId;
    this.created = init.created;
    this.provider = init.provider ?? 'gemini';
    this.id = init.id ?? '';
    this.fixedId = init.id !== undefined;
  }

  onEvent(event: SseEvent, sink: StreamSink<ChatCompletionChunk>): void {
    if (event.data.trim() === '') return;
    const res = this.parse(event.data);
    if (!this.fixedId && this.id === '' && res.responseId !== undefined) this.id = res.responseId;
    if (res.usageMetadata !== undefined) {
      this.usageMetadata = res.usageMetadata;
      // Reported at every event so that a stream cut short still has the usage it ran up.
      sink.usage(usageFromGemini(res.usageMetadata, this.serviceTier));
    }
    const candidates = res.candidates ?? [];
    if (candidates.length === 0 && res.promptFeedback?.blockReason !== undefined) {
      this.emitFinish(0, 'content_filter', sink);
      return;
    }
    candidates.forEach((candidate, position) => this.onCandidate(candidate, candidate.index ?? position, sink));
  }

  onEnd(sink: StreamSink<ChatCompletionChunk>): void {
    const usage = usageFromGemini(this.usageMetadata, this.serviceTier);
    // Always sent: the relay strips it when the client did not ask for usage.
    sink.emit(this.chunk([], chatUsageFrom(usage)));
    // No usage report when Gemini sent none: zeros would read as a free call.
    if (this.usageMetadata !== undefined) sink.usage(usage);
  }

  private parse(data: string): GeminiGenerateResponse {
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch (err) {
      throw providerFailed(this.provider, `provider '${this.provider}' sent a stream event that is not JSON`, err);
    }
    if (!isRecord(payload)) throw providerFailed(this.provider, `provider '${this.provider}' sent a stream event that is not an object`);
    if (payload.error !== undefined) throw fromGeminiError(0, payload, this.provider);
    return payload as GeminiGenerateResponse;
  }

  private onCandidate(candidate: GeminiCandidate, index: number, sink: StreamSink<ChatCompletionChunk>): void {
    const summary = summarizeParts(candidate.content?.parts);
    const delta: ChatDelta = {};
    if (summary.thoughts !== '') delta.reasoning_content = summary.thoughts;
    if (summary.text !== '') delta.content = summary.text;
    if (summary.calls.length > 0) delta.tool_calls = summary.calls.map((called) => this.toolCallDelta(index, called));
    const hasContent = Object.keys(delta).length > 0;
    // An event with nothing to relay (a signature-only part, an empty text) sends nothing.
    if (hasContent) sink.emit(this.chunk([{ index, delta: { ...this.opening(index), ...delta }, finish_reason: null }]));
    if (candidate.finishReason !== undefined) {
      this.emitFinish(index, mapFinishReason(candidate.finishReason, (this.callCounts.get(index) ?? 0) > 0), sink);
    }
  }

  /** The role goes in the first delta of each choice, as OpenAI does. */
  private opening(index: number): ChatDelta {
    if (this.started.has(index)) return {};
    this.started.add(index);
    return { role: 'assistant' };
  }

  private toolCallDelta(choice: number, called: CalledFunction): ToolCallDelta & SignatureCarrier {
    const index = this.callCounts.get(choice) ?? 0;
    this.callCounts.set(choice, index + 1);
    return {
      index,
      id: this.ids.idFor(called),
      type: 'function',
      function: { name: called.call.name, arguments: JSON.stringify(called.call.args ?? {}) },
      ...signatureCarrier(called.signature),
    };
  }

  private emitFinish(index: number, reason: FinishReason, sink: StreamSink<ChatCompletionChunk>): void {
    sink.emit(this.chunk([{ index, delta: this.opening(index), finish_reason: reason }]));
  }

  private chunk(choices: ChatChunkChoice[], usage?: ChatCompletionChunk['usage']): ChatCompletionChunk {
    const chunk: ChatCompletionChunk = { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.modelId, choices };
    if (usage !== undefined) chunk.usage = usage;
    return chunk;
  }
}
