// The contract between a provider's stream translator and the core's stream relay.
// A translator is a small stateful object made per stream: it receives each upstream SSE
// event once, already split and decoded, and emits client-format values (chat chunks or
// Responses events). The relay serialises, writes with backpressure, reassembles the final
// object the log stage records, and strips the usage chunk when the client did not ask for it.
import type { Usage } from '../types/usage.js';
import type { StreamFold } from './stream-fold.js';

export interface SseEvent {
  /** The `event:` field, or undefined when the event had none. */
  event: string | undefined;
  /** The `data:` lines joined with "\n". */
  data: string;
}

export interface StreamSink<T> {
  /** One client-format value. `raw` is its exact JSON text when the translator already has it (pass-through). */
  emit(value: T, raw?: string): void;
  /** The provider-neutral usage of the whole call, as soon as it is known (may be called again to update). */
  usage(usage: Usage): void;
}

export interface StreamTranslator<T> {
  /** Handle one upstream event; throw a GatewayError when the event is a provider error. */
  onEvent(event: SseEvent, sink: StreamSink<T>): void;
  /** The upstream stream ended cleanly; flush anything pending (e.g. the final usage chunk). */
  onEnd(sink: StreamSink<T>): void;
}

/**
 * A translator whose upstream already speaks the client's format. The relay sends such a
 * stream's bytes on as they come and parses on the way only the events where `watched` matches
 * (those that can change what the client sees or what the call costs: usage, errors); its
 * `fold()` builds the final object from the same bytes later.
 */
export interface PassthroughTranslator<T> extends StreamTranslator<T> {
  /** A global RegExp over the stream's bytes read as latin1 (so a match index is a byte offset); false positives only cost a parse. */
  readonly watched: RegExp;
  fold(): StreamFold;
}

export function isPassthrough<T>(translator: StreamTranslator<T>): translator is PassthroughTranslator<T> {
  // A RegExp without the global flag ignores lastIndex: a relay would find its first match forever.
  return (translator as Partial<PassthroughTranslator<T>>).watched?.global === true;
}
