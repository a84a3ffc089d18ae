// Request ids are UUIDv7 (RFC 9562): time-ordered, so the audit log's id index grows at its
// end instead of taking random inserts, and ids sort by arrival.
import { hexByte as h, pool, takeRandom } from './random-pool.js';

export function requestId(now: number = Date.now()): string {
  const r = takeRandom(10);
  const p = pool();
  const ms = now.toString(16).padStart(12, '0');
  return (
    ms.slice(0, 8) + '-' + ms.slice(8, 12) + '-7' + h(p[r]!).slice(1) + h(p[r + 1]!) + '-' +
    h((p[r + 2]! & 0x3f) | 0x80) + h(p[r + 3]!) + '-' +
    h(p[r + 4]!) + h(p[r + 5]!) + h(p[r + 6]!) + h(p[r + 7]!) + h(p[r + 8]!) + h(p[r + 9]!)
  );
}
