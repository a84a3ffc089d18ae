// Reads usage out of a provider's event stream as it passes, one event at a time (the core's
// SseParser splits the events; this is its translator, emitting nothing). The last usage seen
// wins: OpenAI's final chunk, Responses' response.completed, Gemini's last chunk. Anthropic
// reports it in two halves: message_start carries the prompt side, message_delta updates the
// output side (and, on newer API versions, the prompt side too).
import type { SseEvent, StreamSink, StreamTranslator } from '../../core/stream/translator.js';
import type { Usage } from '../../core/types/usage.js';
import type { AnthropicUsage } from '../provider-anthropic/types.js';
import { usageFromAnthropic } from '../provider-anthropic/usage.js';
import { isRecord } from '../provider-gemini/is-record.js';
import { hasTokenCounts, usageOf } from './usage-of.js';
import type { UsageDialect } from './usage-of.js';

/** The SseParser needs a sink; this reader keeps what it finds itself and emits nothing. */
export const IGNORING_SINK: StreamSink<unknown> = Object.freeze({ emit() {}, usage() {} });

export class SseUsage implements StreamTranslator<unknown> {
  usage: Usage | null = null;
  readonly #dialect: UsageDialect;
  #anthropic: AnthropicUsage | null = null;

  constructor(dialect: UsageDialect) {
    this.#dialect = dialect;
  }

  onEvent(event: SseEvent): void {
    const value = parse(event.data);
    if (!isRecord(value)) return;
    const type = value['type'];
    if (type === 'message_start') {
      const usage = isRecord(value['message']) ? value['message']['usage'] : undefined;
      if (isRecord(usage) && hasTokenCounts(usage)) this.#anthropicUpdate(usage);
      return;
    }
    if (type === 'message_delta') {
      if (isRecord(value['usage'])) this.#anthropicUpdate(value['usage']);
      return;
    }
    const usage = usageOf(value, this.#dialect);
    if (usage !== null) this.usage = usage;
  }

  onEnd(): void {}

  /** Numbers the event carries replace the ones known so far; null or absent ones keep them. */
  #anthropicUpdate(update: Record<string, unknown>): void {
    const merged: AnthropicUsage = { ...(this.#anthropic ?? { input_tokens: 0, output_tokens: 0 }) };
    for (const key in update) {
      const v = update[key];
      if (v !== null && v !== undefined) merged[key] = v;
    }
    this.#anthropic = merged;
    if (hasTokenCounts(merged)) this.usage = usageFromAnthropic(merged);
  }
}

/** Streams carry non-JSON events too (`[DONE]`, pings): they are not usage, and not an error here. */
function parse(data: string): unknown {
  const text = data.trimStart();
  const first = text.charCodeAt(0);
  if (first !== 123 /* { */ && first !== 91 /* [ */) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
