// The one rule on how deep a JSON body may nest. Recursive code further on (a provider's request
// serialiser, JSON.stringify of a call's record and its reader) overflows the stack somewhere
// between 2,000 and 10,000 levels; no real request comes near: a chat call's deepest part, a
// tool's JSON schema, nests about 20 levels. 64 leaves room for any real schema, and a body
// is checked once, right after JSON.parse (which itself does not recurse).
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests objects and arrays more than `max` levels deep (a top-level
 * object is level 1). It visits each object and array once and stops at the first one too deep,
 * so its own recursion is never deeper than `max`.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max === 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestsDeeperThan(value[i], max - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], max - 1)) return true;
  return false;
}
