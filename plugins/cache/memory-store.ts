// One process's cache: least recently used entries go first once the byte budget is spent.
// A Map keeps insertion order, so re-inserting an entry on read makes the first key the LRU one.
import type { CacheStore } from './store.js';

interface Slot {
  value: string;
  bytes: number;
  expiresAt: number;
}

export class MemoryStore implements CacheStore {
  readonly #slots = new Map<string, Slot>();
  readonly #maxBytes: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor(maxBytes: number, now: () => number = Date.now) {
    this.#maxBytes = maxBytes;
    this.#now = now;
  }

  /** Bytes held now (UTF-16 length of the stored text, an estimate of its size). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#slots.size;
  }

  get(key: string): Promise<string | undefined> {
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

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#remove(key);
    const bytes = value.length;
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
