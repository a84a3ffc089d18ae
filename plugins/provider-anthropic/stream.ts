// Anthropic Messages SSE events -> OpenAI chat.completion.chunk values.
//
// Anthropic numbers content blocks (text, thinking, tool_use alike); OpenAI numbers tool
// calls only, so tool blocks get their own counter. Usage arrives in two halves: the prompt
// side in message_start, the cumulative output in message_delta (which may repeat or, for
// server tools, update the prompt side). The final usage chunk is always emitted; the relay
// strips it when the client did not ask for it.
import { providerFailed } from '../../core/errors.js';
import type { SseEvent, StreamSink, StreamTranslator } from '../../core/stream/translator.js';
import type { ChatChunkChoice, ChatCompletionChunk, ChatDelta, FinishReason } from '../../core/types/chat.js';
import { fromAnthropicStreamError } from './errors.js';
import { finishReasonFor } from './finish-reason.js';
import type {
  AnthropicContentBlockDeltaEvent,
  AnthropicContentBlockStartEvent,
  AnthropicDeltaUsage,
  AnthropicStreamEvent,
  AnthropicUsage,
} from './types.js';
import { chatUsageFrom, usageFromAnthropic } from './usage.js';

export interface AnthropicChatStreamInit {
  /** The model id the client should see; the upstream message's own `model` when omitted. */
  modelId?: string;
  created: number;
  /** The chunk id; Anthropic's message id when omitted. */
  id?: string;
  /** The provider name put on errors. */
  provider?: string;
}

interface ToolBlock {
  index: number;
  /** Whether any non-empty argument text was sent for it. */
  hasArguments: boolean;
}

/** Later non-null numbers win; message_delta omits (or nulls) what it does not update. */
function mergeUsage(start: AnthropicUsage | null, delta: AnthropicDeltaUsage): AnthropicUsage {
  const merged: AnthropicUsage = { ...(start ?? { input_tokens: 0, output_tokens: 0 }) };
  for (const [key, value] of Object.entries(delta)) {
    if (value !== null && value !== undefined) merged[key] = value;
  }
  return merged;
}

function parseEvent(event: SseEvent, provider: string): AnthropicStreamEvent | null {
  if (event.data.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch (err) {
    throw providerFailed(provider, `provider '${provider}' sent a malformed stream event`, err);
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { type?: unknown }).type !== 'string') {
    throw providerFailed(provider, `provider '${provider}' sent a stream event without a type`);
  }
  return parsed as AnthropicStreamEvent;
}

export class AnthropicChatStream implements StreamTranslator<ChatCompletionChunk> {
  #modelId: string;
  readonly #fixedModel: boolean;
  readonly #created: number;
  readonly #provider: string;
  #id: string;
  readonly #fixedId: boolean;
  #usage: AnthropicUsage | null = null;
  readonly #tools = new Map<number, ToolBlock>();
  #finishReason: FinishReason | null = null;
  #done = false;

  constructor(init: AnthropicChatStreamInit) {
    this.#modelId = init.modelId ?? '';
    this.#fixedModel = init.modelId !== undefined;
    this.#created = init.created;
    this.#provider = init.provider ?? 'anthropic';
    this.#id = init.id ?? '';
    this.#fixedId = init.id !== undefined;
  }

  onEvent(event: SseEvent, sink: StreamSink<ChatCompletionChunk>): void {
    if (this.#done) return;
    const data = parseEvent(event, this.#provider);
    if (data === null) return;
    switch (data.type) {
      case 'message_start':
        if (!this.#fixedId) this.#id = data.message.id;
        if (!this.#fixedModel) this.#modelId = data.message.model;
        this.#usage = { ...data.message.usage };
        // The prompt's tokens are known now: a stream cut before message_stop is still billed them.
        sink.usage(usageFromAnthropic(this.#usage));
        sink.emit(this.#chunk({ role: 'assistant', content: '' }));
        return;
      case 'content_block_start':
        this.#blockStart(data, sink);
        return;
      case 'content_block_delta':
        this.#blockDelta(data, sink);
        return;
      case 'content_block_stop':
        this.#blockStop(data.index, sink);
        return;
      case 'message_delta':
        this.#usage = mergeUsage(this.#usage, data.usage);
        this.#finishReason = finishReasonFor(data.delta.stop_reason);
        if (this.#finishReason !== null) sink.emit(this.#chunk({}, this.#finishReason));
        return;
      case 'message_stop':
        this.#finish(sink);
        return;
      case 'error':
        // As for a cut-off stream (onEnd): what was generated before the error is billed.
        if (this.#usage !== null) sink.usage(usageFromAnthropic(this.#usage));
        this.#done = true;
        throw fromAnthropicStreamError(data, this.#provider);
      default:
        // ping, and event types Anthropic documents it may add later: nothing to relay.
        return;
    }
  }

  /**
   * A stream that stops after its finish reason only lost message_stop: it is complete. One
   * that stops earlier was cut off; the usage known so far is still reported, since Anthropic
   * bills it.
   */
  onEnd(sink: StreamSink<ChatCompletionChunk>): void {
    if (this.#done) return;
    if (this.#finishReason !== null) {
      this.#finish(sink);
      return;
    }
    if (this.#usage !== null) sink.usage(usageFromAnthropic(this.#usage));
    this.#done = true;
    throw providerFailed(this.#provider, `provider '${this.#provider}' ended the stream before the message was complete`);
  }

  #blockStart(event: AnthropicContentBlockStartEvent, sink: StreamSink<ChatCompletionChunk>): void {
    const block = event.content_block;
    if (block.type === 'text' && block.text !== '') sink.emit(this.#chunk({ content: block.text }));
    else if (block.type === 'thinking' && block.thinking !== '') sink.emit(this.#chunk({ reasoning_content: block.thinking }));
    else if (block.type === 'tool_use') {
      const tool: ToolBlock = { index: this.#tools.size, hasArguments: false };
      this.#tools.set(event.index, tool);
      sink.emit(this.#chunk({ tool_calls: [{ index: tool.index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }] }));
    }
  }

  #blockDelta(event: AnthropicContentBlockDeltaEvent, sink: StreamSink<ChatCompletionChunk>): void {
    const delta = event.delta;
    if (delta.type === 'text_delta' && delta.text !== '') sink.emit(this.#chunk({ content: delta.text }));
    else if (delta.type === 'thinking_delta' && delta.thinking !== '') sink.emit(this.#chunk({ reasoning_content: delta.thinking }));
    else if (delta.type === 'input_json_delta' && delta.partial_json !== '') {
      const tool = this.#tools.get(event.index);
      if (tool === undefined) return;
      tool.hasArguments = true;
      sink.emit(this.#chunk({ tool_calls: [{ index: tool.index, function: { arguments: delta.partial_json } }] }));
    }
    // signature_delta and citations_delta have no OpenAI counterpart.
  }

  /** A tool called without arguments streams no JSON at all; clients parse arguments, so send '{}' as the whole-message path does. */
  #blockStop(blockIndex: number, sink: StreamSink<ChatCompletionChunk>): void {
    const tool = this.#tools.get(blockIndex);
    if (tool === undefined || tool.hasArguments) return;
    tool.hasArguments = true;
    sink.emit(this.#chunk({ tool_calls: [{ index: tool.index, function: { arguments: '{}' } }] }));
  }

  #finish(sink: StreamSink<ChatCompletionChunk>): void {
    this.#done = true;
    const usage = usageFromAnthropic(this.#usage ?? { input_tokens: 0, output_tokens: 0 });
    sink.usage(usage);
    sink.emit({ ...this.#envelope([]), usage: chatUsageFrom(usage) });
  }

  #envelope(choices: ChatChunkChoice[]): ChatCompletionChunk {
    return { id: this.#id, object: 'chat.completion.chunk', created: this.#created, model: this.#modelId, choices };
  }

  #chunk(delta: ChatDelta, finishReason: FinishReason | null = null): ChatCompletionChunk {
    return this.#envelope([{ index: 0, delta, finish_reason: finishReason }]);
  }
}
