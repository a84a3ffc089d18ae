// Request ids are UUIDv7 (RFC 9562) of the request's start: they sort by arrival, and a store
// can read a call's start from its id to find its row without an index on ids.
//
// Built as ASCII bytes in one scratch buffer and read out as one flat string: joining ~25
// pieces costs four times as much, and leaves a rope that is flattened again when the id is
// written as a header. The time digits change once a millisecond and are rewritten only then.
import { pool, takeRandom } from './random-pool.js';

const HEX = Buffer.from('0123456789abcdef', 'latin1');
const ID = Buffer.from('00000000-0000-7000-8000-000000000000', 'latin1');
/** Where the 12 hex digits of the 48-bit millisecond timestamp go, most significant first. */
const TIME_DIGITS = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12];
let idMs = -1;

export function requestId(now: number = Date.now()): string {
  if (now !== idMs) {
    idMs = now;
    let t = now;
    for (let i = 11; i >= 0; i--) {
      ID[TIME_DIGITS[i]!] = HEX[t % 16]!;
      t = Math.floor(t / 16);
    }
  }
  const r = takeRandom(10);
  const p = pool();
  // 12 random bits after the version digit, the variant (10xx) and 14 bits, then 48 bits.
  ID[15] = HEX[p[r]! & 15]!;
  hexAt(16, p[r + 1]!);
  hexAt(19, (p[r + 2]! & 0x3f) | 0x80);
  hexAt(21, p[r + 3]!);
  for (let i = 0; i < 6; i++) hexAt(24 + 2 * i, p[r + 4 + i]!);
  return ID.toString('latin1');
}

function hexAt(at: number, byte: number): void {
  ID[at] = HEX[byte >> 4]!;
  ID[at + 1] = HEX[byte & 15]!;
}
