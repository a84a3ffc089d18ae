// Connection-specific headers (RFC 9110 7.6.1): they describe one hop, so a proxy never
// forwards them, in either direction; nor the headers a `Connection` header names.

const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The header names a `Connection` header lists (lower case), or null when there are none. */
export function connectionListed(value: string | string[] | undefined): ReadonlySet<string> | null {
  if (value === undefined) return null;
  const names = new Set<string>();
  for (const part of (Array.isArray(value) ? value.join(',') : value).split(',')) {
    const name = part.trim().toLowerCase();
    if (name !== '') names.add(name);
  }
  return names.size === 0 ? null : names;
}

/** `name` in lower case. `proxy-*` covers Proxy-Authorization and Proxy-Authenticate. */
export function isHopByHop(name: string, listed: ReadonlySet<string> | null): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith('proxy-') || (listed !== null && listed.has(name));
}
