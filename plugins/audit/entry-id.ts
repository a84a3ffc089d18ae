// Whether an entry's id carries the entry's own start time: a UUIDv7 (core/request-id.ts)
// begins with its 48-bit millisecond timestamp in 12 lowercase hex digits. Every id the gateway
// makes does (a request's id is made from its start, which is its entry's ts), and the store
// finds such an entry among the rows of that millisecond, with no index on ids; the others are
// listed in a table of their own.

/** The millisecond a UUIDv7 id says it was made in, or null when it is not one. */
export function idTime(id: string): number | null {
  if (id.length !== 36 || id.charCodeAt(14) !== 0x37 /* 7 */) return null;
  let t = 0;
  for (let i = 0; i < 13; i++) {
    if (i === 8) continue;
    const c = id.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit === -1) return null;
    t = t * 16 + digit;
  }
  return t;
}

/** Whether the entry's id carries its ts (idTime(id) === ts). */
export function carriesTs(id: string, ts: number): boolean {
  return idTime(id) === ts;
}
