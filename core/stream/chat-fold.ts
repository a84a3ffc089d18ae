// A chat chunk stream folded into its chat.completion, from the bytes the client was sent.
// Content chunks that repeat an earlier chunk's text around a plain text delta add their text
// without being parsed (content-template.ts); every other event is parsed whole. An error event
// ends the fold: the relay already answered it, and what came before stands.
import type { ChatCompletionChunk } from '../types/chat.js';
import { ChatCompletionBuilder } from './chat-completion-builder.js';
import { ContentTemplate } from './content-template.js';
import { LearningBudget } from './learning-budget.js';
import { SseParser } from './sse-parser.js';
import { StreamFold } from './stream-fold.js';
import type { SseEvent, StreamSink, StreamTranslator } from './translator.js';

const NO_SINK: StreamSink<unknown> = { emit() {}, usage() {} };

export class ChatFold extends StreamFold implements StreamTranslator<unknown> {
  readonly #parser = new SseParser();
  readonly #completion = new ChatCompletionBuilder();
  #template: ContentTemplate | null = null;
  #index = 0;
  readonly #budget = new LearningBudget();
  #ended = false;

  protected fold(events: Buffer | string): void {
    if (!this.#ended) this.#parser.feed(events, this, NO_SINK);
  }

  protected finish(): unknown {
    if (!this.#ended) this.#parser.end(this, NO_SINK);
    return this.#completion.result();
  }

  onEvent(event: SseEvent): void {
    const data = event.data;
    if (this.#ended || data === '[DONE]') return;
    const template = this.#template;
    if (template !== null) {
      const text = template.contentOf(data);
      if (text !== null) {
        this.#completion.addContent(this.#index, text);
        this.#budget.hit();
        return;
      }
    }
    let chunk: ChatCompletionChunk;
    try {
      chunk = JSON.parse(data) as ChatCompletionChunk;
    } catch {
      return;
    }
    if (typeof chunk !== 'object' || chunk === null || !Array.isArray(chunk.choices) || (chunk as { error?: unknown }).error != null) {
      this.#ended = (chunk as { error?: unknown } | null)?.error != null;
      return;
    }
    try {
      this.#completion.add(chunk);
    } catch {
      // A chunk of the wrong shape (`"choices":[null]`): the client got it as sent; the fold skips it.
      return;
    }
    if (this.#budget.spendOn(chunk)) {
      // The index as JSON.parse read it: a template leaves the choice's text as it was learned.
      const index = chunk.choices[0]!.index;
      const learned = typeof index === 'number' ? ContentTemplate.learn(data) : null;
      if (learned !== null) {
        this.#template = learned;
        this.#index = index;
      }
    }
  }

  onEnd(): void {}
}
