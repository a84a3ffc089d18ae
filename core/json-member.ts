// One top-level member of a JSON object read straight from its bytes, without parsing the
// rest: the usage of a provider's answer sits in its last few hundred bytes, and a gateway that
// forwards the answer untouched has no other use for a parsed copy. Callers fall back to a
// full parse when this returns undefined.

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(raw: Buffer, i: number): number {
  while (i < raw.length && isSpace(raw[i])) i++;
  return i;
}

/**
 * A member name as the bytes `"name"`, searched from the end with a shift table built once:
 * Buffer.lastIndexOf sets up its own search tables on every call, which costs more than the
 * few hundred bytes between a usage member and the end of the answer.
 */
export class MemberKey {
  readonly name: string;
  readonly quoted: Buffer;
  readonly #shift = new Int32Array(256);

  constructor(name: string) {
    this.name = name;
    this.quoted = Buffer.from(`"${name}"`);
    const m = this.quoted.length;
    // Backward Horspool: on a mismatch at position p, the next place the name can start is the
    // nearest one that puts an equal byte of the name over raw[p].
    this.#shift.fill(m);
    for (let k = m - 1; k >= 1; k--) this.#shift[this.quoted[k]!] = k;
  }

  /** The last index at or before `from` where the quoted name starts in raw, or -1. */
  lastIn(raw: Buffer, from: number): number {
    const quoted = this.quoted;
    const m = quoted.length;
    const shift = this.#shift;
    let p = Math.min(from, raw.length - m);
    while (p >= 0) {
      let k = 0;
      while (k < m && raw[p + k] === quoted[k]) k++;
      if (k === m) return p;
      p -= shift[raw[p]!]!;
    }
    return -1;
  }
}

/**
 * The top-level member `key` of the JSON object `raw` (undefined when it has none): from the
 * member's own bytes when lastObjectMember finds it, else from the whole body parsed. Throws the
 * SyntaxError of a body that is not JSON.
 */
export function topLevelMember(raw: Buffer, key: MemberKey): unknown {
  const found = lastObjectMember(raw, key);
  if (found !== undefined) return found;
  const whole: unknown = JSON.parse(raw.toString('utf8'));
  return typeof whole === 'object' && whole !== null && !Array.isArray(whole) ? (whole as Record<string, unknown>)[key.name] : undefined;
}

/** Where the value of the member whose quoted name starts at `at` begins (past the colon and whitespace), or -1 when no colon follows. */
export function memberValueAt(raw: Buffer, at: number, key: MemberKey): number {
  const colon = skipSpace(raw, at + key.quoted.length);
  return raw[colon] === COLON ? skipSpace(raw, colon + 1) : -1;
}

/**
 * The value of the top-level `"key": {...}` or `"key": null` of the JSON object `raw`, parsed,
 * when it is the last occurrence of the key; undefined when it cannot be found that way (the
 * caller parses the whole body then). An occurrence inside a string is never taken: there its
 * quotes are escaped, so `"key"` does not appear as such. One nested deeper (a tool's schema
 * with a `usage` property after the answer's own) is not taken either: what follows the value
 * must close exactly one object, the body's.
 */
export function lastObjectMember(raw: Buffer, key: MemberKey): unknown {
  let at = key.lastIn(raw, raw.length);
  while (at > 0 && raw[at - 1] === BACKSLASH) at = key.lastIn(raw, at - 1);
  if (at === -1) return undefined;
  const start = memberValueAt(raw, at, key);
  if (start === -1) return undefined;
  if (raw[start] === 0x6e /* n */) {
    return raw[start + 1] === 0x75 && raw[start + 2] === 0x6c && raw[start + 3] === 0x6c && closesTheBody(raw, start + 4) ? null : undefined;
  }
  if (raw[start] !== OPEN_BRACE) return undefined;
  const end = objectEnd(raw, start);
  if (end === -1 || !closesTheBody(raw, end)) return undefined;
  try {
    return JSON.parse(raw.toString('utf8', start, end));
  } catch {
    return undefined;
  }
}

/**
 * Where the value of the top-level member `key` of the JSON object `raw` starts, or -1 when it
 * has none. Most bodies never name the key, which one native search tells; otherwise the bytes
 * up to each occurrence are walked (strings skipped) to tell a member of the body from one nested
 * deeper, or from a string value that reads the same.
 */
export function topLevelValueAt(raw: Buffer, key: MemberKey): number {
  let next = raw.indexOf(key.quoted);
  let depth = 0;
  for (let i = 0; next !== -1 && i < raw.length; i++) {
    const c = raw[i];
    if (c === QUOTE) {
      const start = i;
      i = stringEnd(raw, i);
      if (start === next && depth === 1) {
        const value = memberValueAt(raw, start, key);
        if (value !== -1) return value;
      }
      if (i >= next) next = raw.indexOf(key.quoted, i + 1);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return -1;
}

/**
 * The value of the top-level `"key": "text"` of the JSON object `raw` when it is the last
 * occurrence of the key and the text has no escapes (a service tier, an id); undefined otherwise.
 * Never parses the body: a caller that must know for sure parses it itself.
 */
export function lastStringMember(raw: Buffer, key: MemberKey): string | undefined {
  let at = key.lastIn(raw, raw.length);
  while (at > 0 && raw[at - 1] === BACKSLASH) at = key.lastIn(raw, at - 1);
  if (at === -1) return undefined;
  const start = memberValueAt(raw, at, key);
  if (start === -1 || raw[start] !== QUOTE) return undefined;
  let end = start + 1;
  for (; end < raw.length && raw[end] !== QUOTE; end++) if (raw[end] === BACKSLASH) return undefined;
  // The names read this way are ASCII; latin1 is the cheaper decoder for them.
  return end < raw.length && closesTheBody(raw, end + 1) ? raw.toString('latin1', start + 1, end) : undefined;
}

/**
 * The index of the quote that closes the string opening at `open` (raw.length when cut off):
 * brackets inside a string do not count, and it ends at the first quote no backslash escapes.
 */
function stringEnd(raw: Buffer, open: number): number {
  const n = raw.length;
  let i = open + 1;
  for (; i < n; i++) {
    const s = raw[i];
    if (s === QUOTE) break;
    if (s === BACKSLASH) i++;
  }
  return i;
}

/**
 * The index of the first byte from `from` on that closes a bracket opened before `from` (both
 * kinds count, strings skipped), or -1 when none does.
 */
function unmatchedCloser(raw: Buffer, from: number): number {
  const n = raw.length;
  let depth = 0;
  for (let i = from; i < n; i++) {
    const c = raw[i];
    if (c === QUOTE) i = stringEnd(raw, i);
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth < 0) return i;
  }
  return -1;
}

/** Whether the bytes from `from` on close exactly one object: the enclosing one, ending the text. */
function closesTheBody(raw: Buffer, from: number): boolean {
  const at = unmatchedCloser(raw, from);
  return at !== -1 && raw[at] === CLOSE_BRACE && skipSpace(raw, at + 1) === raw.length;
}

/** The index just past the object that opens at `start`, or -1 when it is cut off. */
function objectEnd(raw: Buffer, start: number): number {
  const at = unmatchedCloser(raw, start + 1);
  return at !== -1 && raw[at] === CLOSE_BRACE ? at + 1 : -1;
}

/** Cheap check that bytes look like one JSON object (first and last non-space bytes are braces). */
export function looksLikeJsonObject(raw: Buffer): boolean {
  let a = 0;
  let b = raw.length - 1;
  while (a <= b && isSpace(raw[a])) a++;
  while (b >= a && isSpace(raw[b])) b--;
  return a < b && raw[a] === OPEN_BRACE && raw[b] === CLOSE_BRACE;
}
