// A pass-through stream's bytes, folded into the final object only when someone asks for it:
// the audit log serialises it off the request path (JSON.stringify calls toJSON). A fold keeps
// the bytes it is given by reference and folds them when asked, or once FOLD_AT of them wait,
// so that a long generation holds its folded text rather than its whole event stream.
export const FOLD_AT = 64 * 1024;

export abstract class StreamFold {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #result: unknown = undefined;

  /** Bytes of whole events, in stream order. */
  add(bytes: Buffer): void {
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.length;
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

  /** Fold these bytes into what the fold holds. */
  protected abstract fold(bytes: Buffer): void;
  /** The final object, once every byte was folded. */
  protected abstract finish(): unknown;

  #foldPending(): void {
    const pending = this.#pending;
    this.#pending = [];
    this.#pendingBytes = 0;
    // A fold never throws: what it cannot read of a stream the client already got is left out.
    try {
      for (const bytes of pending) this.fold(bytes);
    } catch {
      // The fold's own guards make this a bug; the relay and the audit entry must not pay for it.
    }
  }
}

/** A response body as an object: a folded stream's final object, or the body itself. */
export function resolvedBody(body: unknown): unknown {
  return body instanceof StreamFold ? body.value() : body;
}
