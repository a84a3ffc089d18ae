// One top-level member of a JSON object read straight from its bytes, without parsing the
// rest: the usage of a provider's answer sits in its last few hundred bytes, and a gateway that
// forwards the answer untouched has no other use for a parsed copy. Callers fall back to a
// full parse when this returns undefined.

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * The value of the last `"key": {...}` or `"key": null` in `raw`, parsed; undefined when it
 * cannot be found that way. An occurrence inside a string is never taken: there its quotes are
 * escaped, so `"key"` does not appear as such.
 */
export function lastObjectMember(raw: Buffer, key: string): unknown {
  const needle = `"${key}"`;
  let at = raw.lastIndexOf(needle);
  while (at > 0 && raw[at - 1] === BACKSLASH) at = raw.lastIndexOf(needle, at - 1);
  if (at === -1) return undefined;
  let i = at + needle.length;
  while (i < raw.length && isSpace(raw[i]!)) i++;
  if (raw[i] !== COLON) return undefined;
  i++;
  while (i < raw.length && isSpace(raw[i]!)) i++;
  if (raw[i] === 0x6e /* n */) return raw.toString('latin1', i, i + 4) === 'null' ? null : undefined;
  if (raw[i] !== OPEN_BRACE) return undefined;
  // Latin-1 maps each byte to one char, so positions match the bytes; a string is scanned far
  // faster than a Buffer indexed byte by byte.
  const start = i;
  const tail = raw.toString('latin1', start);
  let depth = 0;
  let inString = false;
  for (let j = 0; j < tail.length; j++) {
    const c = tail.charCodeAt(j);
    if (inString) {
      if (c === BACKSLASH) j++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE) depth++;
    else if (c === CLOSE_BRACE && --depth === 0) {
      try {
        return JSON.parse(raw.toString('utf8', start, start + j + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Cheap check that bytes look like one JSON object (first and last non-space bytes are braces). */
export function looksLikeJsonObject(raw: Buffer): boolean {
  let a = 0;
  let b = raw.length - 1;
  while (a <= b && isSpace(raw[a]!)) a++;
  while (b >= a && isSpace(raw[b]!)) b--;
  return a < b && raw[a] === OPEN_BRACE && raw[b] === CLOSE_BRACE;
}
