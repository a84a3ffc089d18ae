// Walking JSON text without parsing it: where a string, a value or a container ends, and where
// an object's member starts. Not a validator: JSON.parse of the same text decides validity; these
// only find positions, reading keys exactly as their text stands.
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Where the container opened before `from` closes: the index just after the bracket that brings
 * the nesting from `depth` to 0, skipping strings; -1 when the text ends first.
 */
export function closeOf(text: string, from: number, depth: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return -1;
}

export function skipSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index just after the string whose opening quote is at `i`; -1 when it does not end. */
function stringEnd(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/** The index just after the JSON value starting at `i` (not validated: JSON.parse does that). */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return closeOf(text, i + 1, 1);
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
    i++;
  }
  return i;
}

/**
 * The members of the object whose text runs from `i` (just after its `{`), up to the member
 * named `name` (its raw key text): where that key starts and where its value starts; null when
 * the object has no such key before it ends.
 */
export function findMember(text: string, i: number, name: string): { key: number; value: number } | null {
  i = skipSpace(text, i);
  while (text.charCodeAt(i) === QUOTE) {
    const key = i;
    const keyEnd = stringEnd(text, i);
    if (keyEnd === -1) return null;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return null;
    const value = skipSpace(text, i + 1);
    if (keyEnd - key === name.length + 2 && text.startsWith(name, key + 1)) return { key, value };
    const end = valueEnd(text, value);
    if (end === -1) return null;
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== COMMA) return null;
    i = skipSpace(text, i + 1);
  }
  return null;
}

