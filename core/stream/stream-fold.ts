// A pass-through stream's bytes, folded into the final object only when someone asks for it:
// a log tap serialises it off the request path (JSON.stringify calls toJSON). A fold keeps
// the bytes it is given by reference and folds them when asked, or once FOLD_AT of them wait,
// so that a long generation holds its folded text rather than its whole event stream. Events
// that are ASCII may come as the text the relay already decoded to scan them: their UTF-8 text
// is the same, and decoding them again cost a second copy of the stream per request.
export const FOLD_AT = 64 * 1024;

export abstract class StreamFold {
  #pending: Array<Buffer | string> = [];
  #pendingBytes = 0;
  #result: unknown = undefined;

  /** Whole events, in stream order: their bytes, or their text when every byte is ASCII. */
  add(events: Buffer | string): void {
    this.#pending.push(events);
    this.#pendingBytes += events.length;
    if (this.#pendingBytes > FOLD_AT) this.#foldPending();
  }

  /** The stream folded into its final object (computed once). */
  value(): unknown {
    if (this.#result === undefined) {
      this.#foldPending();
      this.#result = this.finish();
    }
    return this.#result;
  }

  toJSON(): unknown {
    return this.value();
  }

  /** Fold these events into what the fold holds. */
  protected abstract fold(events: Buffer | string): void;
  /** The final object, once every byte was folded. */
  protected abstract finish(): unknown;

  #foldPending(): void {
    const pending = this.#pending;
    this.#pending = [];
    this.#pendingBytes = 0;
    // A fold never throws: what it cannot read of a stream the client already got is left out.
    try {
      for (const events of pending) this.fold(events);
    } catch {
      // The fold's own guards make this a bug; the relay and the log stage must not pay for it.
    }
  }
}

/** A response body as an object: a folded stream's final object, or the body itself. */
export function resolvedBody(body: unknown): unknown {
  return body instanceof StreamFold ? body.value() : body;
}
