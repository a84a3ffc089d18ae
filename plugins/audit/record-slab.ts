// Where encoded records are written: large slabs, carved record by record. A record waits in
// the writer's queue for a few milliseconds and is garbage once written; Buffer.allocUnsafe
// would give each one a slice of Node's 8 KB pool, so a new ArrayBuffer every few records, and
// every ArrayBuffer is tracked and swept by the garbage collector. A slab is one ArrayBuffer
// for a hundred records, written in place (no size computed first, no copy afterwards).
const SLAB_BYTES = 256 * 1024;

let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let used = 0;

/**
 * A buffer with room for `max` bytes from `start()` on: write the record there, then `take()`
 * what was written. A record that would not fit a fresh slab gets a buffer of its own.
 */
export function roomFor(max: number): Buffer {
  if (used + max <= slab.length) return slab;
  slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, max));
  used = 0;
  return slab;
}

/** Where the next record starts in the buffer roomFor() gave. */
export function start(): number {
  return used;
}

/** The `length` bytes written from `start()` on, as the record's own view (the slab is never reused). */
export function take(length: number): Buffer {
  const bytes = slab.subarray(used, used + length);
  used += length;
  return bytes;
}
