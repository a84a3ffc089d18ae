// Cache keys by the request's own bytes. A client repeating a call sends the same bytes (the SDKs
// serialize a request the same way each time), so the body is put in canonical form once, not on
// every hit: that was a quarter of what a hit cost. A digest of the bytes stands for them, so a
// long body is not held twice; the oldest memo goes first when the memo is full.
import { hash } from 'node:crypto';

export class KeyMemo {
  readonly #keys = new Map<string, string>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /**
   * The key `compute` gives for these bytes in this context (who asks, for which target): computed
   * once. The body a key is computed from must follow from the bytes alone (docs/cache.md).
   */
  key(context: string, raw: Buffer, compute: () => string): string {
    const memo = `${context}\0${hash('sha256', raw, 'base64')}`;
    let key = this.#keys.get(memo);
    if (key === undefined) {
      key = compute();
      if (this.#keys.size >= this.#capacity) this.#keys.delete(this.#keys.keys().next().value!);
      this.#keys.set(memo, key);
    }
    return key;
  }
}
