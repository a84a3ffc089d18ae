// Chat chunks folded into the chat.completion they add up to: text, reasoning and refusal
// deltas joined per choice, tool-call argument deltas joined per call, the last finish reason,
// the usage. What a stream adds up to: what the log stage records and what a cache would replay.
import type { ChatCompletion, ChatCompletionChunk, ChatChunkChoice, ChatUsage, FinishReason, ToolCall } from '../types/chat.js';

interface ChoiceState {
  index: number;
  content: string | null;
  reasoning: string | null;
  refusal: string | null;
  toolCalls: ToolCall[];
  finishReason: FinishReason | null;
}

export class ChatCompletionBuilder {
  #id = '';
  #created = 0;
  #model = '';
  #fingerprint: string | null | undefined = undefined;
  readonly #choices: ChoiceState[] = [];
  #usage: ChatUsage | null = null;

  add(chunk: ChatCompletionChunk): void {
    this.start(chunk.id, chunk.created, chunk.model);
    if (chunk.system_fingerprint !== undefined) this.#fingerprint = chunk.system_fingerprint;
    if (chunk.usage) this.#usage = chunk.usage;
    const choices = chunk.choices;
    for (let i = 0; i < choices.length; i++) this.#fold(choices[i]!);
  }

  /** Whether a chunk with an id was added: the completion's id, creation time and model are set. */
  get started(): boolean {
    return this.#id !== '';
  }

  /** A chunk's head: the completion takes the first one's. */
  start(id: string, created: number, model: string): void {
    if (this.#id !== '') return;
    this.#id = id;
    this.#created = created;
    this.#model = model;
  }

  /** A chunk's system fingerprint: the last one given stands. */
  fingerprint(value: string | null): void {
    this.#fingerprint = value;
  }

  /** A chunk whose only news is text for one choice (the rest repeats an earlier chunk). */
  addContent(index: number, content: string): void {
    const state = this.#choice(index);
    state.content = (state.content ?? '') + content;
  }

  /** A chunk whose news for one choice is its finish reason. */
  finish(index: number, reason: FinishReason): void {
    this.#choice(index).finishReason = reason;
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

  #choice(index: number): ChoiceState {
    let state = this.#choices[index];
    if (!state) {
      state = { index, content: null, reasoning: null, refusal: null, toolCalls: [], finishReason: null };
      this.#choices[index] = state;
    }
    return state;
  }

  #fold(choice: ChatChunkChoice): void {
    const state = this.#choice(choice.index);
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
          keepExtraMembers(call, acc);
        }
      }
    }
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
  }
}

const TOOL_CALL_MEMBERS: ReadonlySet<string> = new Set(['index', 'id', 'type', 'function']);

/** Members a provider adds to a tool call (an opaque signature to send back) survive into the completion; the last value stands. */
function keepExtraMembers(delta: object, call: ToolCall): void {
  for (const key in delta) {
    if (!TOOL_CALL_MEMBERS.has(key)) (call as unknown as Record<string, unknown>)[key] = (delta as Record<string, unknown>)[key];
  }
}
