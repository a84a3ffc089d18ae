// The pass-through side of a relay: the event bytes held back until an event is whole, the fold
// of what the client got, and where the translator's watched pattern matches.
import type { StreamCopy } from './stream-copy.js';
import type { StreamFold } from './stream-fold.js';
import type { PassthroughTranslator } from './translator.js';

// A key with an escape in it (`"us\u0061ge":`) could be a watched one in disguise: its event is read too.
export const ESCAPED_KEY = /\\[^"\n]*"\s*:/g;

export class RawEvents {
  readonly translator: PassthroughTranslator<unknown>;
  readonly fold: StreamFold;
  readonly #copy: StreamCopy | null;
  /** The start of an event the upstream has not finished yet. */
  carry: Buffer | null = null;
  /** The upstream's own `[DONE]` went out: no trailer after it. */
  doneSent = false;

  constructor(translator: PassthroughTranslator<unknown>, fold: StreamFold, copy: StreamCopy | null) {
    this.translator = translator;
    this.fold = fold;
    this.#copy = copy;
  }

  /** Whole events the client got (or the format hid): the fold and the copy hold the same bytes. */
  keep(events: Buffer | string): void {
    this.fold.add(events);
    this.#copy?.add(events);
  }

  /**
   * Where the translator's watched pattern (or, in text with escapes, an escaped key) first
   * matches at or after `from`, or -1. A RegExp over the latin1 text (one character a byte) runs
   * several times faster than Buffer#indexOf for needles that start with a quote, the commonest
   * byte of JSON.
   */
  watchedAt(text: string, from: number, escapes: boolean): number {
    const at = firstMatch(this.translator.watched, text, from);
    if (!escapes) return at;
    const escaped = firstMatch(ESCAPED_KEY, text, from);
    return at === -1 || (escaped !== -1 && escaped < at) ? escaped : at;
  }
}

function firstMatch(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? -1 : match.index;
}
