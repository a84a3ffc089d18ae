// Request ids are UUIDv7 (RFC 9562): time-ordered, so the audit log's id index grows at its
// end instead of taking random inserts, and ids sort by arrival. Random bits come from a pooled
// buffer refilled 256 ids at a time.
import { randomFillSync } from 'node:crypto';

const POOL = Buffer.allocUnsafe(10 * 256);
let offset = POOL.length;

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function requestId(now: number = Date.now()): string {
  if (offset === POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const r = offset;
  offset += 10;
  const ms = now.toString(16).padStart(12, '0');
  return (
    ms.slice(0, 8) + '-' + ms.slice(8, 12) + '-7' + HEX[POOL[r]!]!.slice(1) + HEX[POOL[r + 1]!] + '-' +
    HEX[(POOL[r + 2]! & 0x3f) | 0x80] + HEX[POOL[r + 3]!] + '-' +
    HEX[POOL[r + 4]!] + HEX[POOL[r + 5]!] + HEX[POOL[r + 6]!] + HEX[POOL[r + 7]!] + HEX[POOL[r + 8]!] + HEX[POOL[r + 9]!]
  );
}
