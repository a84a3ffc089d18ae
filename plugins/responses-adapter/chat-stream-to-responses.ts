// A provider's chat stream as a Responses stream: the provider's own chat translator still
// reads the upstream events (errors, usage and all), and writes its chat chunks into a
// ResponsesStreamBuilder, which turns them into Responses events for the relay's sink.
// Clients of this format never see a chat chunk, so nothing of chat's framing leaks.
import type { SseEvent, StreamSink, StreamTranslator } from '../../core/stream/translator.js';
import type { ResponsesStreamEvent } from '../../core/types/responses.js';
import { ResponsesStreamBuilder } from './responses-stream-builder.js';
import type { ResponsesStreamInit } from './responses-stream-builder.js';

export class ChatStreamToResponses implements StreamTranslator<ResponsesStreamEvent> {
  readonly #chat: StreamTranslator<unknown>;
  readonly #builder: ResponsesStreamBuilder;

  constructor(chat: StreamTranslator<unknown>, init: ResponsesStreamInit) {
    this.#chat = chat;
    this.#builder = new ResponsesStreamBuilder(init);
  }

  onEvent(event: SseEvent, sink: StreamSink<ResponsesStreamEvent>): void {
    this.#builder.out = sink;
    this.#chat.onEvent(event, this.#builder);
  }

  onEnd(sink: StreamSink<ResponsesStreamEvent>): void {
    this.#builder.out = sink;
    this.#chat.onEnd(this.#builder);
    this.#builder.end();
  }
}
