// Chat chunk streams repeat themselves: after the first chunk, every content chunk is the same
// text (id, created, model, fingerprint, choice index, `"logprobs":null,"finish_reason":null`)
// around a small `delta` object, followed by a few top-level members that may change per chunk
// (OpenAI's `obfuscation` padding, `usage`). Parsing each chunk whole is most of a stream's
// translation cost; a chunk that matches the template learned from an earlier one is parsed as
// its delta and its trailing members only (a third fewer instructions, measured with callgrind).
//
// A chunk that does not match (another choice index, a finish reason, the usage chunk, an
// error) is not handled here: the caller parses it whole. Learning walks the members of the
// text itself to the `delta` of the only choice, and takes the members around it from their
// own text, so a look-alike key elsewhere, an escaped key or a duplicate one can never make a
// template parse differ from JSON.parse.
//
// This builds chunk objects, for translators that need them (Responses over a chat stream);
// folding a pass-through stream needs only its text, and uses content-template.ts.
import type { ChatCompletionChunk } from '../types/chat.js';
import { chunkLayout } from './chunk-layout.js';
import { BACKSLASH, CLOSE_BRACE, COMMA, OPEN_BRACE, QUOTE, closeOf } from './json-walk.js';

/** `{` + members + `}` parsed, or null when that is not a JSON object. */
function parseMembers(members: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse('{' + members + '}');
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

const CONTENT_OPEN = '{"content":"';

/**
 * The text of a plain text token's delta, `{"content":"..."}` with nothing to unescape, read
 * without JSON.parse (whose fixed cost is most of a small parse); null for any other delta.
 */
function contentDelta(text: string, start: number, end: number): string | null {
  const from = start + CONTENT_OPEN.length;
  if (end - from < 2 || text.charCodeAt(end - 1) !== CLOSE_BRACE || text.charCodeAt(end - 2) !== QUOTE) return null;
  if (text.slice(start, from) !== CONTENT_OPEN) return null;
  for (let i = from; i < end - 2; i++) {
    const c = text.charCodeAt(i);
    // A quote, a backslash or a control character: JSON.parse decides.
    if (c === QUOTE || c === BACKSLASH || c < 0x20) return null;
  }
  return text.slice(from, end - 2);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ChunkTemplate {
  /** The text up to the value of `choices[0].delta`. */
  readonly #prefix: string;
  /** The text from the end of the delta through the `]` that closes `choices`. */
  readonly #choiceTail: string;
  /** The top-level members written before `choices` (the prefix holds their text). */
  readonly #head: Record<string, unknown>;
  /** The choice's members, `delta` a placeholder. */
  readonly #choice: Record<string, unknown>;
  /** The text after `choices`, and its members when a chunk with the same text may share them. */
  readonly #rest: string | null;
  readonly #restMembers: Record<string, unknown>;

  private constructor(
    prefix: string,
    choiceTail: string,
    head: Record<string, unknown>,
    choice: Record<string, unknown>,
    rest: string | null,
    restMembers: Record<string, unknown>,
  ) {
    this.#prefix = prefix;
    this.#choiceTail = choiceTail;
    this.#head = head;
    this.#choice = choice;
    this.#rest = rest;
    this.#restMembers = restMembers;
  }

  /** The template of a chunk's JSON text, or null when it has no usable one. */
  static learn(data: string): ChunkTemplate | null {
    const layout = chunkLayout(data);
    if (layout === null) return null;
    const restText = data.slice(layout.rest);
    const restAt = restText.charCodeAt(0);

    // Each part parsed from its own text, as JSON.parse would read it in the whole: the head
    // from the members before `choices`; the choice with a marker for its delta (a second
    // `delta` after this one would win over it in a whole parse, and overwrites the marker).
    const headText = data.slice(layout.top, layout.choicesKey).trimEnd();
    const head = parseMembers(headText.endsWith(',') ? headText.slice(0, -1) : headText);
    const choice = parseMembers(data.slice(layout.choice, layout.deltaKey) + '"delta":0' + data.slice(layout.deltaEnd, layout.choiceEnd - 1));
    const rest = restAt === CLOSE_BRACE ? {} : parseMembers(restText.slice(1, restText.lastIndexOf('}')));
    if (head === null || choice === null || rest === null || choice['delta'] !== 0 || Object.hasOwn(head, 'choices')) return null;
    // Parsing copies these with assignment, which would take a `__proto__` member for the prototype.
    if (Object.hasOwn(head, '__proto__') || Object.hasOwn(choice, '__proto__')) return null;
    if (restText.slice(restText.lastIndexOf('}') + 1).trim() !== '') return null;
    // Chunks with the same text after `choices` share its members only when they are all
    // primitives (`"usage":null`): nobody can then change one chunk through another.
    const shareable = Object.values(rest).every((v) => typeof v !== 'object' || v === null);
    return new ChunkTemplate(data.slice(0, layout.delta), data.slice(layout.deltaEnd, layout.rest), head, choice, shareable ? restText : null, rest);
  }

  /** `data` parsed through the template, or null when it does not match (parse it whole then). */
  parse(data: string): ChatCompletionChunk | null {
    const end = this.#deltaEnd(data);
    if (end === -1) return null;
    const start = this.#prefix.length;
    const rest = data.slice(end + this.#choiceTail.length);
    let delta: unknown;
    let members: Record<string, unknown> | null = null;
    try {
      const text = contentDelta(data, start, end);
      delta = text !== null ? { content: text } : JSON.parse(data.slice(start, end));
      if (rest === this.#rest) members = this.#restMembers;
      else if (rest.charCodeAt(0) === COMMA) members = JSON.parse('{' + rest.slice(1)) as Record<string, unknown>;
      else if (rest !== '}') return null;
    } catch {
      return null;
    }
    if (!isPlainObject(delta)) return null;
    // Object.assign, not spread: spreading objects of varying shapes is several times slower here.
    const chunk: Record<string, unknown> = Object.assign({}, this.#head);
    if (members !== null) {
      // A member the template did not foresee (an error, a second `choices`) is for the whole
      // parse; so is a `__proto__` member, which assignment would take for the prototype.
      if ('error' in members || 'choices' in members || Object.hasOwn(members, '__proto__')) return null;
      Object.assign(chunk, members);
    }
    const choice: Record<string, unknown> = Object.assign({}, this.#choice);
    choice['delta'] = delta;
    chunk['choices'] = [choice];
    return chunk as unknown as ChatCompletionChunk;
  }

  /** Where the delta of a chunk with the template's text around it ends; -1 when `data` does not match. */
  #deltaEnd(data: string): number {
    // slice + === rather than startsWith: startsWith compares char by char, about eight times
    // the instructions for a prefix this long.
    const prefix = this.#prefix;
    const start = prefix.length;
    if (data.slice(0, start) !== prefix || data.charCodeAt(start) !== OPEN_BRACE) return -1;
    const end = closeOf(data, start + 1, 1);
    const choiceTail = this.#choiceTail;
    if (end === -1 || data.slice(end, end + choiceTail.length) !== choiceTail) return -1;
    return end;
  }
}
