// A stream as the client's format framed it, kept for a plugin that will send the same stream
// again (a replay of the call). A stage sets `ctx.streamCopy` before the reply is sent; the relay
// then adds every event in order: those the client got, those the format hid from this client
// (the usage chunk it did not ask for, which another client may ask for) and the trailer, but not
// an error event. It keeps what it is given by reference (the relay's own buffers and strings,
// no second copy of the stream) up to `limit`; past it, it lets go of everything and keeps nothing
// more, so a stream too long to be of use is not held.
export class StreamCopy {
  /** The most it keeps: characters of text, bytes of a buffer (a byte is at most a character). */
  readonly limit: number;
  #parts: Array<Buffer | string> = [];
  #size = 0;
  #overflowed = false;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Whole events, in stream order: their bytes, or their text. */
  add(events: Buffer | string): void {
    if (this.#overflowed || events.length === 0) return;
    this.#size += events.length;
    if (this.#size > this.limit) {
      this.#overflowed = true;
      this.#parts = [];
      return;
    }
    this.#parts.push(events);
  }

  /** Lets go of everything: what a failed attempt added before its stream began is not the call's. */
  clear(): void {
    this.#parts = [];
    this.#size = 0;
    this.#overflowed = false;
  }

  /** The stream went past `limit`: nothing is kept. */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** The events as one text; null when nothing was kept (no event, or past the limit). */
  text(): string | null {
    if (this.#overflowed || this.#parts.length === 0) return null;
    // Each buffer holds whole events, so no character is split between two of them.
    return this.#parts.map((part) => (typeof part === 'string' ? part : part.toString('utf8'))).join('');
  }
}
