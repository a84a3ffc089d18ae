// A chat chunk stream folded into its chat.completion, from the bytes the client was sent.
// Chunks in OpenAI's own serialisation are read a run at a time by one pattern
// (canonical-chunks.ts); of the others, content chunks that repeat an earlier chunk's text
// around a plain text delta add their text without being parsed (content-template.ts), and
// every other event is parsed whole. An error event ends the fold: the relay already answered
// it, and what came before stands.
import type { ChatCompletionChunk } from '../types/chat.js';
import { foldCanonicalChunks } from './canonical-chunks.js';
import { ChatCompletionBuilder } from './chat-completion-builder.js';
import { ContentTemplate } from './content-template.js';
import { LearningBudget } from './learning-budget.js';
import { SseParser } from './sse-parser.js';
import { StreamFold } from './stream-fold.js';
import type { SseEvent, StreamSink, StreamTranslator } from './translator.js';

const NO_SINK: StreamSink<unknown> = { emit() {}, usage() {} };
const DONE_EVENT = 'data: [DONE]\n\n';
const LF = 10;

export class ChatFold extends StreamFold implements StreamTranslator<unknown> {
  readonly #parser = new SseParser();
  readonly #completion = new ChatCompletionBuilder();
  #template: ContentTemplate | null = null;
  #index = 0;
  readonly #budget = new LearningBudget();
  #ended = false;

  protected fold(events: Buffer | string): void {
    if (this.#ended) return;
    // Whole events (the relay hands over no other): a Buffer ends on a newline, so it decodes
    // alone. While the parser holds nothing, a run of canonical OpenAI chunks is read at once.
    if (!this.#parser.idle || (typeof events !== 'string' && events[events.length - 1] !== LF)) {
      this.#parser.feed(events, this, NO_SINK);
      return;
    }
    const text = typeof events === 'string' ? events : events.toString('utf8');
    let at = 0;
    while (at < text.length && !this.#ended) {
      at = foldCanonicalChunks(text, at, this.#completion);
      if (at === text.length) break;
      if (text.startsWith(DONE_EVENT, at)) {
        at += DONE_EVENT.length;
        continue;
      }
      // Any other event goes through the parser (and the template) alone; it ends at a blank
      // line, so the parser holds nothing after it.
      const blank = text.indexOf('\n\n', at);
      const next = blank === -1 ? text.length : blank + 2;
      this.#parser.feed(at === 0 && next === text.length ? text : text.slice(at, next), this, NO_SINK);
      at = next;
    }
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
