// Random bytes for ids on the request path. crypto.randomBytes costs ~4 µs per call here (an
// allocation and a call into OpenSSL each time); this refills one pooled buffer from the CSPRNG
// 4 KiB at a time and hands out slices of it.
import { randomFillSync } from 'node:crypto';

const POOL = Buffer.allocUnsafe(4096);
let offset = POOL.length;

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The offset in `pool()` of `n` fresh random bytes (n ≤ 64). */
export function takeRandom(n: number): number {
  if (offset + n > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const at = offset;
  offset += n;
  return at;
}

export function pool(): Buffer {
  return POOL;
}

/** `n` random bytes as lower-case hex. */
export function randomHex(n: number): string {
  const at = takeRandom(n);
  let out = '';
  for (let i = 0; i < n; i++) out += HEX[POOL[at + i]!];
  return out;
}
