// Adjusts the neutral usage an existing handler reports, for JSON answers and streams alike,
// without touching the bytes the client gets. Chat has its own hook (the endpoint's
// usageFromChat); this is for operations whose shared handler maps usage the OpenAI way only,
// such as xAI's provider-reported cost on Responses.
import type { OperationHandler } from '../../core/provider.js';
import type { SseEvent, StreamSink, StreamTranslator } from '../../core/stream/translator.js';
import type { Usage } from '../../core/types/usage.js';

export type UsageRemap = (usage: Usage) => Usage;

export function withUsageRemap(handler: OperationHandler, remap: UsageRemap): OperationHandler {
  return async (ctx, target) => {
    const reply = await handler(ctx, target);
    if (reply.kind === 'json') {
      if (reply.usage !== null) reply.usage = remap(reply.usage);
    } else if (reply.kind === 'stream') {
      reply.translator = new RemappingTranslator(reply.translator, remap);
    }
    return reply;
  };
}

/** Passes every event to the provider's translator and remaps the usage it reports on the way out. */
export class RemappingTranslator implements StreamTranslator<unknown>, StreamSink<unknown> {
  readonly #inner: StreamTranslator<unknown>;
  readonly #remap: UsageRemap;
  #sink: StreamSink<unknown> | null = null;

  constructor(inner: StreamTranslator<unknown>, remap: UsageRemap) {
    this.#inner = inner;
    this.#remap = remap;
  }

  onEvent(event: SseEvent, sink: StreamSink<unknown>): void {
    this.#sink = sink;
    this.#inner.onEvent(event, this);
  }

  onEnd(sink: StreamSink<unknown>): void {
    this.#sink = sink;
    this.#inner.onEnd(this);
  }

  emit(value: unknown, raw?: string): void {
    this.#sink!.emit(value, raw);
  }

  usage(usage: Usage): void {
    this.#sink!.usage(this.#remap(usage));
  }
}
