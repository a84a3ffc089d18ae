// Where encoded records are written: large slabs, carved record by record, and used again once
// every record carved from them has been written to the store.
//
// A record waits in the writer's queue for a few milliseconds and is garbage once written.
// Buffer.allocUnsafe would give each one a slice of Node's 8 KB pool, so a new ArrayBuffer
// every few records, and every ArrayBuffer is tracked and swept by the garbage collector. A
// slab is one ArrayBuffer for a hundred records. Letting full slabs go was still measured to
// cost a busy gateway: at ~1.5 KB a record, thousands of requests a second allocate megabytes
// of fresh memory a second, whose pages the kernel maps in one fault at a time, and whose
// external bytes make V8 run full (mark-compact) collections several times a second. A slab
// whose records have all been released (release(): the writer calls it once the store or the
// spill file has them) goes back to a small free list instead.
const SLAB_BYTES = 256 * 1024;
// Slabs kept for reuse: 2 MB, enough for a second of records at thousands a second; beyond it
// a released slab is left to the garbage collector.
const MAX_FREE = 8;

interface Slab {
  buf: Buffer;
  /** Records carved from it and not released yet. */
  outstanding: number;
}

/**
 * Slabs with records outstanding, the current one included, by their memory. Weak: a record
 * that is never released (one a store encoded and dropped, one lost with a failing disk) must
 * not keep its slab alive once nothing else does.
 */
const live = new WeakMap<ArrayBufferLike, Slab>();
const free: Buffer[] = [];
let current: Slab = open(Buffer.allocUnsafeSlow(SLAB_BYTES));
let used = 0;
/** The buffer of a record too big for a slab, between its roomFor() and its take(). */
let oversized: Buffer | null = null;

function open(buf: Buffer): Slab {
  const slab = { buf, outstanding: 0 };
  live.set(buf.buffer, slab);
  return slab;
}

/**
 * A buffer with room for `max` bytes from `start()` on: write the record there, then `take()`
 * what was written. A record that would not fit a fresh slab gets a buffer of its own.
 */
export function roomFor(max: number): Buffer {
  if (max > SLAB_BYTES) return (oversized = Buffer.allocUnsafeSlow(max));
  if (used + max <= SLAB_BYTES) return current.buf;
  const previous = current;
  current = open(free.pop() ?? Buffer.allocUnsafeSlow(SLAB_BYTES));
  used = 0;
  if (previous.outstanding === 0) retire(previous);
  return current.buf;
}

/** Where the next record starts in the buffer roomFor() gave. */
export function start(): number {
  return oversized === null ? used : 0;
}

/** The `length` bytes written from `start()` on, as the record's own view. */
export function take(length: number): Buffer {
  if (oversized !== null) {
    const bytes = oversized.subarray(0, length);
    oversized = null;
    return bytes;
  }
  const bytes = current.buf.subarray(used, used + length);
  used += length;
  current.outstanding++;
  return bytes;
}

/**
 * Gives a record's bytes back, once: nothing may read them afterwards, as the slab is written
 * over (a second release would count against another record of the slab). Bytes that did not
 * come from take() are ignored, and so is a record never released (its slab is then let go to
 * the garbage collector, as any buffer): only a release can be a mistake.
 */
export function release(bytes: Buffer): void {
  const slab = live.get(bytes.buffer);
  if (slab === undefined || slab.outstanding === 0) return;
  slab.outstanding--;
  if (slab.outstanding === 0 && slab !== current) retire(slab);
}

function retire(slab: Slab): void {
  live.delete(slab.buf.buffer);
  if (free.length < MAX_FREE) free.push(slab.buf);
}
