// Incremental server-sent-events parser (WHATWG rules that matter for model APIs): events end
// at a blank line, `data:` lines join with "\n", one leading space after the colon is dropped,
// comment lines (":") are ignored, CRLF is accepted. Bytes are decoded in streaming mode so a
// UTF-8 character split across TCP chunks survives. Each event is handed straight to the
// translator: no intermediate arrays, no per-event closures.
import type { SseEvent, StreamSink, StreamTranslator } from './translator.js';

export class SseParser {
  #pending = '';
  #event: string | undefined = undefined;
  #data: string | null = null;
  readonly #decoder = new TextDecoder();
  /** The decoder holds the start of a character split across chunks. */
  #split = false;
  #whole: string | null = null;
  /** Events handed to a translator so far. */
  events = 0;

  /** Nothing carried over: no line, event or character begun in an earlier chunk. */
  get idle(): boolean {
    return this.#pending === '' && this.#data === null && this.#event === undefined && !this.#split;
  }

  /**
   * The text of the last chunk fed, when it stood alone: nothing carried in from the chunk
   * before (a line or a character begun there), nothing left over for the next.
   */
  get whole(): string | null {
    return this.#whole;
  }

  feed(chunk: Buffer | string, translator: StreamTranslator<unknown>, sink: StreamSink<unknown>): void {
    const wasSplit = this.#split;
    let text = typeof chunk === 'string' ? chunk : this.#decode(chunk);
    const alone = !wasSplit && !this.#split && this.#pending === '';
    if (!alone) text = this.#pending + text;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) break;
      let end = nl;
      if (end > start && text.charCodeAt(end - 1) === 13) end--;
      if (end === start) this.#dispatch(translator, sink);
      else this.#line(text, start, end);
      start = nl + 1;
    }
    this.#pending = start < text.length ? text.slice(start) : '';
    this.#whole = alone && this.#pending === '' ? text : null;
  }

  /** The source ended: a last event without its blank line still counts. */
  end(translator: StreamTranslator<unknown>, sink: StreamSink<unknown>): void {
    const rest = this.#pending + this.#decoder.decode();
    this.#pending = '';
    if (rest !== '') this.feed(rest + '\n', translator, sink);
    this.#dispatch(translator, sink);
  }

  /**
   * A chunk that ends on an ASCII byte (events end in a newline) cannot end inside a UTF-8
   * character: Buffer#toString decodes it several times faster than a streaming TextDecoder.
   */
  #decode(chunk: Buffer): string {
    if (!this.#split && chunk.length > 0 && chunk[chunk.length - 1]! < 0x80) return chunk.toString('utf8');
    const text = this.#decoder.decode(chunk, { stream: true });
    this.#split = chunk.length > 0 && chunk[chunk.length - 1]! >= 0x80;
    return text;
  }

  #line(text: string, start: number, end: number): void {
    if (text.charCodeAt(start) === 58 /* ':' comment */) return;
    const colon = text.indexOf(':', start);
    let field: string;
    let value: string;
    if (colon === -1 || colon > end) {
      field = text.slice(start, end);
      value = '';
    } else {
      field = text.slice(start, colon);
      const v = text.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1;
      value = text.slice(v, end);
    }
    if (field === 'data') this.#data = this.#data === null ? value : this.#data + '\n' + value;
    else if (field === 'event') this.#event = value;
  }

  #dispatch(translator: StreamTranslator<unknown>, sink: StreamSink<unknown>): void {
    if (this.#data === null) {
      this.#event = undefined;
      return;
    }
    const event: SseEvent = { event: this.#event, data: this.#data };
    this.#event = undefined;
    this.#data = null;
    this.events++;
    translator.onEvent(event, sink);
  }
}
