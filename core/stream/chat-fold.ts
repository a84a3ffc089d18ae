// A chat chunk stream folded into its chat.completion, from the bytes the client was sent:
// each event parsed and added, when the fold is asked for (off the request path). An event that
// is no chat chunk is skipped; an error event ends the fold: the relay already answered it, and
// what came before stands. A provider plugin may read its own serialisation faster in a subclass.
import type { ChatCompletionChunk } from '../types/chat.js';
import { ChatCompletionBuilder } from './chat-completion-builder.js';
import { SseParser } from './sse-parser.js';
import { StreamFold } from './stream-fold.js';
import type { SseEvent, StreamSink, StreamTranslator } from './translator.js';

const NO_SINK: StreamSink<unknown> = { emit() {}, usage() {} };

export class ChatFold extends StreamFold implements StreamTranslator<unknown> {
  protected readonly completion = new ChatCompletionBuilder();
  readonly #parser = new SseParser();
  #ended = false;

  /** An error event ended the fold. */
  protected get ended(): boolean {
    return this.#ended;
  }

  /** No event is half read: the next bytes start a new one. */
  protected get betweenEvents(): boolean {
    return this.#parser.idle;
  }

  protected fold(events: Buffer | string): void {
    if (!this.#ended) this.#parser.feed(events, this, NO_SINK);
  }

  protected finish(): unknown {
    if (!this.#ended) this.#parser.end(this, NO_SINK);
    return this.completion.result();
  }

  onEvent(event: SseEvent): void {
    if (this.#ended || event.data === '[DONE]') return;
    let chunk: ChatCompletionChunk;
    try {
      chunk = JSON.parse(event.data) as ChatCompletionChunk;
    } catch {
      return;
    }
    if (typeof chunk !== 'object' || chunk === null) return;
    if ((chunk as { error?: unknown }).error != null) {
      this.#ended = true;
      return;
    }
    if (!Array.isArray(chunk.choices)) return;
    try {
      this.completion.add(chunk);
    } catch {
      // A chunk of the wrong shape (`"choices":[null]`): the client got it as sent; the fold skips it.
    }
  }

  onEnd(): void {}
}
