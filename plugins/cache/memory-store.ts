// One process's cache: least recently used values go first once the byte budget is spent.
// A Map keeps insertion order, so re-inserting a value on read makes the first key the LRU one.
// Values are kept as they are, not serialised: a hit reads nothing back.

interface Slot<V> {
  value: V;
  bytes: number;
  expiresAt: number;
}

export class MemoryStore<V> {
  readonly #slots = new Map<string, Slot<V>>();
  readonly #maxBytes: number;
  readonly #sizeOf: (value: V) => number;
  readonly #now: () => number;
  #bytes = 0;

  constructor(maxBytes: number, sizeOf: (value: V) => number, now: () => number = Date.now) {
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
    this.#now = now;
  }

  /** Bytes held now, as sizeOf counts them. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#slots.size;
  }

  get(key: string): Promise<V | undefined> {
    const slot = this.#slots.get(key);
    if (slot === undefined) return Promise.resolve(undefined);
    this.#slots.delete(key);
    if (slot.expiresAt <= this.#now()) {
      this.#bytes -= slot.bytes;
      return Promise.resolve(undefined);
    }
    this.#slots.set(key, slot);
    return Promise.resolve(slot.value);
  }

  set(key: string, value: V, ttlMs: number): Promise<void> {
    this.#remove(key);
    const bytes = this.#sizeOf(value);
    if (bytes > this.#maxBytes) return Promise.resolve();
    this.#slots.set(key, { value, bytes, expiresAt: this.#now() + ttlMs });
    this.#bytes += bytes;
    for (const oldest of this.#slots.keys()) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#remove(oldest);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#slots.clear();
    this.#bytes = 0;
    return Promise.resolve();
  }

  #remove(key: string): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#slots.delete(key);
    this.#bytes -= slot.bytes;
  }
}
