// A stream stage that hands every chunk to an observer and passes it on unchanged, in the
// same tick: what it observes never delays, copies or reorders the bytes, and the pipe on
// either side keeps its backpressure.
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

export interface BodyObserver {
  chunk(chunk: Buffer): void;
  /** The body ended cleanly (not called when it was cut off). */
  end(): void;
}

export class ObservingStream extends Transform {
  readonly #observer: BodyObserver;

  constructor(observer: BodyObserver) {
    super();
    this.#observer = observer;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#observer.chunk(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.#observer.end();
    done();
  }
}
