// Chat Completions streams: `data: <chunk>` events ending with `data: [DONE]`. The usage-only
// chunk is always requested upstream (usage must be recorded) but shown to the client only
// when it asked for `stream_options.include_usage`.
import type { RequestContext } from '../context.js';
import type { ChatCompletion, ChatCompletionChunk, ChatChunkChoice, ChatUsage, FinishReason, ToolCall } from '../types/chat.js';
import type { Usage } from '../types/usage.js';
import type { FormatSink, StreamFormat } from './format.js';

interface ChoiceState {
  index: number;
  role: string;
  content: string | null;
  reasoning: string | null;
  refusal: string | null;
  toolCalls: ToolCall[];
  finishReason: FinishReason | null;
}

export class ChatStreamSink implements FormatSink {
  #out = '';
  readonly #includeUsage: boolean;
  #id = '';
  #created = 0;
  #model = '';
  #fingerprint: string | null | undefined = undefined;
  readonly #choices: ChoiceState[] = [];
  #usage: ChatUsage | null = null;
  #neutral: Usage | null = null;

  constructor(includeUsage: boolean) {
    this.#includeUsage = includeUsage;
  }

  emit(value: unknown, raw?: string): void {
    const chunk = value as ChatCompletionChunk;
    if (this.#id === '') {
      this.#id = chunk.id;
      this.#created = chunk.created;
      this.#model = chunk.model;
    }
    if (chunk.system_fingerprint !== undefined) this.#fingerprint = chunk.system_fingerprint;
    const choices = chunk.choices;
    if (chunk.usage) this.#usage = chunk.usage;
    if (choices.length === 0 && chunk.usage && !this.#includeUsage) return;
    for (let i = 0; i < choices.length; i++) this.#fold(choices[i]!);
    this.#out += 'data: ' + (raw ?? JSON.stringify(chunk)) + '\n\n';
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
    const completion: ChatCompletion = {
      id: this.#id,
      object: 'chat.completion',
      created: this.#created,
      model: this.#model,
      choices: this.#choices
        .filter((c): c is ChoiceState => c !== undefined)
        .map((c) => ({
          index: c.index,
          message: {
            role: 'assistant',
            content: c.content,
            ...(c.reasoning !== null ? { reasoning_content: c.reasoning } : {}),
            ...(c.refusal !== null ? { refusal: c.refusal } : {}),
            ...(c.toolCalls.length > 0 ? { tool_calls: c.toolCalls.filter((t) => t !== undefined) } : {}),
          },
          finish_reason: c.finishReason,
        })),
    };
    if (this.#usage) completion.usage = this.#usage;
    if (this.#fingerprint !== undefined) completion.system_fingerprint = this.#fingerprint;
    return completion;
  }

  #fold(choice: ChatChunkChoice): void {
    let state = this.#choices[choice.index];
    if (!state) {
      state = { index: choice.index, role: 'assistant', content: null, reasoning: null, refusal: null, toolCalls: [], finishReason: null };
      this.#choices[choice.index] = state;
    }
    const delta = choice.delta;
    if (delta) {
      if (typeof delta.content === 'string') state.content = (state.content ?? '') + delta.content;
      if (typeof delta.reasoning_content === 'string') state.reasoning = (state.reasoning ?? '') + delta.reasoning_content;
      if (typeof delta.refusal === 'string') state.refusal = (state.refusal ?? '') + delta.refusal;
      const calls = delta.tool_calls;
      if (calls) {
        for (const call of calls) {
          let acc = state.toolCalls[call.index];
          if (!acc) {
            acc = { id: call.id ?? '', type: 'function', function: { name: '', arguments: '' } };
            state.toolCalls[call.index] = acc;
          }
          if (call.id) acc.id = call.id;
          if (call.function?.name) acc.function.name += call.function.name;
          if (call.function?.arguments) acc.function.arguments += call.function.arguments;
          // Provider extras (Gemini's thought signature) must survive into the audit record.
          const extra = (call as { extra_content?: unknown }).extra_content;
          if (extra !== undefined) (acc as ToolCall & { extra_content?: unknown }).extra_content = extra;
        }
      }
    }
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
  }
}

export const chatStreamFormat: StreamFormat = {
  name: 'chat',
  createSink(ctx: RequestContext): FormatSink {
    const options = (ctx.body as { stream_options?: { include_usage?: unknown } | null } | null)?.stream_options;
    return new ChatStreamSink(options?.include_usage === true);
  },
};
