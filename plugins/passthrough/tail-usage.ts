// Usage from the end of a JSON answer too big to keep whole: the last `"usage": {...}` or
// `"usageMetadata": {...}` member in the tail is cut out by matching braces and parsed alone.
// Only a real member matches: inside a JSON string a quote is always escaped, so `"usage"`
// followed by a colon cannot come from text the model wrote.
import type { Usage } from '../../core/types/usage.js';
import { usageOf } from './usage-of.js';
import type { UsageDialect } from './usage-of.js';

const KEYS = ['usageMetadata', 'usage'] as const;

export function usageFromTail(text: string, dialect: UsageDialect): Usage | null {
  let from = text.length;
  while (from >= 0) {
    const at = text.lastIndexOf('"usage', from);
    if (at === -1) return null;
    from = at - 1;
    for (const key of KEYS) {
      const value = memberValue(text, at, key);
      if (value === undefined) continue;
      const usage = usageOf({ [key]: value }, dialect);
      if (usage !== null) return usage;
    }
  }
  return null;
}

/** The object value of the member `"<key>": {...}` that starts at `at`, or undefined. */
function memberValue(text: string, at: number, key: string): unknown {
  const quoted = `"${key}"`;
  if (!text.startsWith(quoted, at)) return undefined;
  let i = skipSpace(text, at + quoted.length);
  if (text.charCodeAt(i) !== 58 /* : */) return undefined;
  i = skipSpace(text, i + 1);
  const end = objectEnd(text, i);
  if (end === -1) return undefined;
  try {
    return JSON.parse(text.slice(i, end));
  } catch {
    return undefined;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i++;
  }
  return i;
}

/** The index just past the object that opens at `start`, or -1 (not an object, or cut off). */
function objectEnd(text: string, start: number): number {
  if (text.charCodeAt(start) !== 123 /* { */) return -1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123) depth++;
    else if (c === 125 /* } */ && --depth === 0) return i + 1;
  }
  return -1;
}
