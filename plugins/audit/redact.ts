// Credentials never reach the audit log: a header that carries one keeps its name (so the
// operator sees it was sent) and loses its value.
import type { IncomingHttpHeaders } from 'node:http';
import { CREDENTIAL_HEADERS } from '../../core/credential-headers.js';

export const REDACTED = '[redacted]';

// Vendors invent their own credential headers (x-foo-token, x-client-secret); any name that
// merely mentions one is treated as one, at the price of redacting a few harmless headers.
const CREDENTIAL_WORD = /secret|token|key/;

// The verdict per header name, remembered: clients send the same few names on every request.
// Bounded, since names are the client's choice.
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 1000;

export function isCredentialHeader(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    verdict = CREDENTIAL_HEADERS.has(name) || CREDENTIAL_WORD.test(name);
    if (verdicts.size < MAX_VERDICTS) verdicts.set(name, verdict);
  }
  return verdict;
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

/**
 * JSON.stringify(value) for a value that holds `headers`, with the credential values replaced,
 * without copying the headers: their values are swapped for the call and put back before it
 * returns (or throws). Nothing else runs in between, so nobody sees the swap.
 */
export function stringifyRedacting(headers: IncomingHttpHeaders, value: unknown): string {
  let swapped: Array<string | string[] | undefined> | null = null;
  let names: string[] | null = null;
  for (const name in headers) {
    if (headers[name] === undefined || !isCredentialHeader(name)) continue;
    (names ??= []).push(name);
    (swapped ??= []).push(headers[name]);
    headers[name] = REDACTED;
  }
  try {
    return JSON.stringify(value);
  } finally {
    if (names !== null) for (let i = 0; i < names.length; i++) headers[names[i]!] = swapped![i];
  }
}
