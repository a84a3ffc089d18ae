// An answer given before the request's body has all arrived: a 401 before the body is read, a
// 413 from its declared length, a 503 while draining. When node then closes the connection (the
// client sent `Connection: close`), body bytes still on their way meet a closed socket, the
// kernel answers them with a reset, and the reset can discard the answer before the client read
// it (EPIPE or ECONNRESET in 8 of 10 tries with a large upload). So the answer is written whole
// at once and the response ended, which lets node close, only after the rest of the body has
// been read and dropped, or after LINGER_MS if the client keeps sending or stops halfway.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long an answered request's body may keep the connection after the answer went out. */
export const LINGER_MS = 5000;

export function endAfterRequestBody(req: IncomingMessage, res: ServerResponse, payload: Buffer | string): void {
  res.write(payload);
  const end = (): void => {
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  const timer = setTimeout(end, LINGER_MS);
  req.once('end', end);
  req.once('close', end);
  req.resume();
}
