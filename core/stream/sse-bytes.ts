// Event boundaries of an SSE byte stream, found without decoding it: an event ends at a blank
// line, i.e. a line feed followed by an empty line ("\n\n", or "\n\r\n" with CRLF endings).
// These are exactly the boundaries SseParser dispatches at (it splits lines on "\n" and drops a
// trailing "\r"), so bytes cut here parse the same alone as in the whole. JSON text cannot hold
// a raw line feed, so a boundary never falls inside an event's data.
const LF_LF = Buffer.from('\n\n');
const LF_CRLF = Buffer.from('\n\r\n');

/** The index just after the last complete event in `buf`, or -1 when no event ends in it. */
export function lastEventEnd(buf: Buffer): number {
  const n = buf.length;
  // The common case: a provider flushes whole events.
  if (n >= 2 && buf[n - 1] === 0x0a && buf[n - 2] === 0x0a) return n;
  const lf = buf.lastIndexOf(LF_LF);
  const crlf = buf.lastIndexOf(LF_CRLF);
  return Math.max(lf === -1 ? -1 : lf + 2, crlf === -1 ? -1 : crlf + 3);
}

/** Where the event holding byte `at` starts: just after the previous boundary, or 0. */
export function eventStart(buf: Buffer, at: number): number {
  const lf = at >= 2 ? buf.lastIndexOf(LF_LF, at - 2) : -1;
  const crlf = at >= 3 ? buf.lastIndexOf(LF_CRLF, at - 3) : -1;
  return Math.max(lf === -1 ? 0 : lf + 2, crlf === -1 ? 0 : crlf + 3);
}

/**
 * The index just after the event holding byte `at`, or the end of `buf` when it does not end there.
 * Line by line, so that walking a long buffer event by event reads each byte once.
 */
export function eventEnd(buf: Buffer, at: number): number {
  for (let lf = buf.indexOf(0x0a, at); lf !== -1; lf = buf.indexOf(0x0a, lf + 1)) {
    const next = buf[lf + 1];
    if (next === 0x0a) return lf + 2;
    if (next === 0x0d && buf[lf + 2] === 0x0a) return lf + 3;
  }
  return buf.length;
}
