// Chat chunk streams repeat themselves: after the first chunk, every content chunk is the same
// text (id, created, model, fingerprint, choice index, `"logprobs":null,"finish_reason":null`)
// around a small `delta` object, followed by a few top-level members that may change per chunk
// (OpenAI's `obfuscation` padding, `usage`). Parsing each chunk whole costs about 2 us on this
// hardware, most of a stream's translation cost; a chunk that matches the template learned from
// an earlier one is parsed as two small pieces instead: its delta and its trailing members.
//
// A chunk that does not match (another choice index, a finish reason, the usage chunk, an
// error) is not handled here: the caller parses it whole. Learning proves the template's slot
// is `choices[0].delta` by parsing the chunk with the delta replaced, so a look-alike key
// elsewhere in the text can never be taken for it.
import type { ChatChunkChoice, ChatCompletionChunk } from '../types/chat.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Where the container opened before `from` closes: the index just after the bracket that brings
 * the nesting from `depth` to 0, skipping strings; -1 when the text ends first.
 */
function closeOf(text: string, from: number, depth: number): number {
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Integer-like keys are enumerated first whatever their place in the text, which would break
// "the members before choices" below.
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

export class ChunkTemplate {
  /** The text up to the value of `choices[0].delta`. */
  readonly #prefix: string;
  /** The text from the end of the delta through the `]` that closes `choices`. */
  readonly #choiceTail: string;
  /** The top-level members written before `choices` (the prefix holds their text). */
  readonly #head: Record<string, unknown>;
  /** The choice's members other than `delta`. */
  readonly #choice: Record<string, unknown>;
  /** The text after `choices`, and its members when a chunk with the same text may share them. */
  readonly #rest: string | null;
  readonly #restMembers: Record<string, unknown> | null;

  private constructor(
    prefix: string,
    choiceTail: string,
    head: Record<string, unknown>,
    choice: Record<string, unknown>,
    rest: string | null,
    restMembers: Record<string, unknown> | null,
  ) {
    this.#prefix = prefix;
    this.#choiceTail = choiceTail;
    this.#head = head;
    this.#choice = choice;
    this.#rest = rest;
    this.#restMembers = restMembers;
  }

  /** The template of `data` (the chunk's JSON text, `chunk` its parse), or null when it has no usable one. */
  static learn(data: string, chunk: ChatCompletionChunk): ChunkTemplate | null {
    const choices = chunk.choices;
    if (choices.length !== 1 || !isPlainObject(choices[0]) || !isPlainObject(choices[0].delta)) return null;
    const key = data.indexOf('"delta"');
    if (key === -1) return null;
    let start = key + 7;
    while (isSpace(data.charCodeAt(start))) start++;
    if (data.charCodeAt(start) !== COLON) return null;
    start++;
    while (isSpace(data.charCodeAt(start))) start++;
    if (data.charCodeAt(start) !== OPEN_BRACE) return null;
    const end = closeOf(data, start + 1, 1);
    if (end === -1) return null;
    // The delta sits in a choice object, in the choices array: two levels to close.
    let choicesEnd = closeOf(data, end, 2);
    if (choicesEnd === -1) return null;
    while (isSpace(data.charCodeAt(choicesEnd))) choicesEnd++;
    const rest = data.charCodeAt(choicesEnd);
    if (rest !== COMMA && rest !== CLOSE_BRACE) return null;

    const head: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    // Chunks with the same text after `choices` share its members only when they are all
    // primitives (`"usage":null`): nobody can then change one chunk through another.
    let shareable = true;
    let before = true;
    for (const name of Object.keys(chunk)) {
      if (INDEX_KEY.test(name)) return null;
      const value = (chunk as unknown as Record<string, unknown>)[name];
      if (name === 'choices') before = false;
      else if (before) head[name] = value;
      else {
        after[name] = value;
        if (typeof value === 'object' && value !== null) shareable = false;
      }
    }
    const restText = data.slice(choicesEnd);
    const restMembers = restText === '}' || !shareable ? null : after;
    const { delta: _delta, ...choice } = choices[0] as ChatChunkChoice & Record<string, unknown>;
    const prefix = data.slice(0, start);
    const choiceTail = data.slice(end, choicesEnd);

    // The proof: the text with the delta replaced by a marker must parse to the chunk with its
    // delta replaced, and the text after `choices` must hold only members that follow it.
    const expected = JSON.stringify({ ...chunk, choices: [{ ...choices[0], delta: 0 }] });
    let marked: unknown;
    try {
      marked = JSON.parse(prefix + '0' + data.slice(end));
    } catch {
      return null;
    }
    if (JSON.stringify(marked) !== expected) return null;
    return new ChunkTemplate(prefix, choiceTail, head, choice, restText === '}' || shareable ? restText : null, restMembers);
  }

  /** `data` parsed through the template, or null when it does not match (parse it whole then). */
  parse(data: string): ChatCompletionChunk | null {
    // slice + === rather than startsWith: startsWith compares char by char, about eight times
    // the instructions for a prefix this long.
    const prefix = this.#prefix;
    const start = prefix.length;
    if (data.slice(0, start) !== prefix || data.charCodeAt(start) !== OPEN_BRACE) return null;
    const end = closeOf(data, start + 1, 1);
    const choiceTail = this.#choiceTail;
    if (end === -1 || data.slice(end, end + choiceTail.length) !== choiceTail) return null;
    const rest = data.slice(end + choiceTail.length);
    let delta: unknown;
    let members: Record<string, unknown> | null = null;
    try {
      delta = JSON.parse(data.slice(start, end));
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
}
