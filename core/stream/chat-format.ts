// Chat Completions streams: `data: <chunk>` events ending with `data: [DONE]`. The usage-only
// chunk is always requested upstream (usage must be recorded) but shown to the client only
// when it asked for `stream_options.include_usage`.
import type { RequestContext } from '../context.js';
import type { ChatCompletion, ChatCompletionChunk } from '../types/chat.js';
import { ChatCompletionBuilder } from './chat-completion-builder.js';
import type { Usage } from '../types/usage.js';
import type { FormatSink, StreamFormat } from './format.js';
import type { StreamCopy } from './stream-copy.js';

export class ChatStreamSink implements FormatSink {
  #out = '';
  readonly #includeUsage: boolean;
  readonly #copy: StreamCopy | null;
  readonly #completion = new ChatCompletionBuilder();
  #neutral: Usage | null = null;

  constructor(includeUsage: boolean, copy: StreamCopy | null = null) {
    this.#includeUsage = includeUsage;
    this.#copy = copy;
  }

  emit(value: unknown, raw?: string): void {
    const chunk = value as ChatCompletionChunk;
    this.#completion.add(chunk);
    const hidden = !this.#includeUsage && isUsageOnly(chunk);
    if (hidden && this.#copy === null) return;
    const event = 'data: ' + (raw ?? JSON.stringify(chunk)) + '\n\n';
    this.#copy?.add(event);
    if (!hidden) this.#out += event;
  }

  usage(usage: Usage): void {
    this.#neutral = usage;
  }

  take(): string {
    const out = this.#out;
    this.#out = '';
    return out;
  }

  trailer(): string {
    return 'data: [DONE]\n\n';
  }

  usageResult(): Usage | null {
    return this.#neutral;
  }

  /** A chat stream that fails says so with an error event, which the translator throws. */
  failure(): null {
    return null;
  }

  result(): ChatCompletion {
    return this.#completion.result();
  }
}

/** The usage-only chunk, which a client sees only when it asked for it. */
export function isUsageOnly(chunk: ChatCompletionChunk): boolean {
  return chunk.choices.length === 0 && chunk.usage != null;
}

/** Whether a chat request asks to see the usage chunk (`stream_options.include_usage`). */
export function includesUsage(body: Record<string, unknown> | null): boolean {
  const options = (body as { stream_options?: { include_usage?: unknown } | null } | null)?.stream_options;
  return options?.include_usage === true;
}

export const chatStreamFormat: StreamFormat = {
  name: 'chat',
  createSink(ctx: RequestContext, copy: StreamCopy | null): FormatSink {
    return new ChatStreamSink(includesUsage(ctx.body), copy);
  },
};
