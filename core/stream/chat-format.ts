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
    const hidden = chunk.choices.length === 0 && chunk.usage != null && !this.#includeUsage;
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

  result(): ChatCompletion {
    return this.#completion.result();
  }
}

export const chatStreamFormat: StreamFormat = {
  name: 'chat',
  createSink(ctx: RequestContext, copy: StreamCopy | null): FormatSink {
    const options = (ctx.body as { stream_options?: { include_usage?: unknown } | null } | null)?.stream_options;
    return new ChatStreamSink(options?.include_usage === true, copy);
  },
};
