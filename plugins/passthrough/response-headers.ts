// Which provider response headers reach the client: all but hop-by-hop ones and cookies (the
// gateway never forwards the client's cookies, so a provider's cannot come back to it). A
// header the gateway already set (x-request-id, x-ratelimit-* of its own limits) keeps the
// gateway's value; the provider's request id, which its support asks for, stays readable as
// x-provider-request-id. A header node would refuse to send is left out rather than thrown
// from inside the proxy's event.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connectionListed, isHopByHop } from './hop-by-hop.js';

const NOT_PASSED: ReadonlySet<string> = new Set(['set-cookie', 'set-cookie2']);

export function copyResponseHeaders(from: IncomingMessage, to: ServerResponse): void {
  const headers = from.headers;
  const listed = connectionListed(headers.connection);
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || NOT_PASSED.has(name) || isHopByHop(name, listed)) continue;
    const as = !to.hasHeader(name) ? name : name === 'x-request-id' ? 'x-provider-request-id' : null;
    if (as !== null) setHeaderIfValid(to, as, value);
  }
}

/** For values that come from outside (a provider, a client's body): node throws on a newline. */
export function setHeaderIfValid(to: ServerResponse, name: string, value: string | string[]): void {
  try {
    to.setHeader(name, value);
  } catch {
    // An invalid character in the name or value: the client gets the rest of the answer.
  }
}
