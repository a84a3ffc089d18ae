// The requests in flight, so that a shutdown past its deadline can cancel them. Slots in an
// array rather than a Set: a Set swaps its hash table for a new one as entries come and go, and
// a replaced table that had lived long enough to be promoted still points at the contexts it
// held. Until the next full collection, every scavenge then keeps those contexts (and whatever
// they point to) alive and promotes them (bench/README.md has the figures). A slot is cleared
// when its request ends, so nothing keeps a pointer to a finished request.
import type { RequestContext } from './context.js';

export class InFlight {
  readonly #slots: Array<RequestContext | null> = [];
  /** Free slots, the last freed first (the array only grows to the peak concurrency). */
  readonly #free: number[] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Tracks a request; its slot is what delete() takes. */
  add(ctx: RequestContext): number {
    const slot = this.#free.length > 0 ? this.#free.pop()! : this.#slots.length;
    this.#slots[slot] = ctx;
    this.#size++;
    return slot;
  }

  delete(slot: number): void {
    this.#slots[slot] = null;
    this.#free.push(slot);
    this.#size--;
  }

  /** Calls `fn` with each request in flight. */
  forEach(fn: (ctx: RequestContext) => void): void {
    for (const ctx of this.#slots) if (ctx !== null) fn(ctx);
  }
}
