// A credential's model allow-list: exact ids, `<prefix>/*` for a whole provider, or `*`.

export function isModelAllowed(allowed: readonly string[] | null, id: string): boolean {
  if (allowed === null) return true;
  for (const pattern of allowed) {
    if (pattern === '*' || pattern === id) return true;
    if (pattern.endsWith('/*') && id.startsWith(pattern.slice(0, -1))) return true;
  }
  return false;
}
