// Credentials never reach the audit log: a header that carries one keeps its name (so the
// operator sees it was sent) and loses its value.
import type { IncomingHttpHeaders } from 'node:http';
import { CREDENTIAL_HEADERS } from '../../../core/credential-headers.js';

export const REDACTED = '[redacted]';

// Vendors invent their own credential headers (x-foo-token, x-client-secret); any name that
// merely mentions one is treated as one, at the price of redacting a few harmless headers.
const CREDENTIAL_WORD = /secret|token|key/;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name) || CREDENTIAL_WORD.test(name);
}

/** A copy of node's (already lower-cased) request headers with credential values replaced. */
export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    out[name] = isCredentialHeader(name) ? REDACTED : value;
  }
  return out;
}
