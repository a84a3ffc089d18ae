// Folding a chat chunk stream cheaply: after the first content chunk, every chunk of a plain text
// token is the same text (id, created, model, choice index, `"logprobs":null,"finish_reason":null`)
// around `{"content":"<token>"}`. Learned from a chunk JSON.parse read (it was folded whole), a
// template then takes such a chunk's token with one comparison of the text before the delta,
// one scan of the token, and one comparison of the text after it: no parse, no object.
//
// It is sound because the text around the delta is the learned chunk's, so its parse is that
// chunk's, except where JSON lets a later duplicate key win: learning refuses a chunk whose text
// after the delta holds another `"delta"`, another `"choices"` or any escape (which could spell
// either), and the members after `choices` must be the learned ones or change nothing the fold
// reads.
import { chunkLayout } from './chunk-layout.js';
import { BACKSLASH, CLOSE_BRACE, COMMA, QUOTE } from './json-walk.js';

const CONTENT_OPEN = '{"content":"';
// Members after `choices` that change what a chunk folds into; anything else there (OpenAI's
// `obfuscation` padding, a repeated id) does not.
const FOLDED_MEMBERS = ['usage', 'system_fingerprint', 'error', 'choices'];

/** Whether the text after `choices` closes the chunk with members that change nothing in the fold. */
function foldsNothing(rest: string): boolean {
  if (rest === '}') return true;
  if (rest.charCodeAt(0) !== COMMA) return false;
  let members: unknown;
  try {
    members = JSON.parse('{' + rest.slice(1));
  } catch {
    return false;
  }
  if (typeof members !== 'object' || members === null || Array.isArray(members)) return false;
  for (const name of FOLDED_MEMBERS) if (Object.hasOwn(members, name)) return false;
  return true;
}

export class ContentTemplate {
  /** The text up to the value of `choices[0].delta`. */
  readonly #prefix: string;
  /** The text from the end of the delta through the `]` that closes `choices`. */
  readonly #tail: string;
  /** The text after `choices`. */
  readonly #rest: string;

  private constructor(prefix: string, tail: string, rest: string) {
    this.#prefix = prefix;
    this.#tail = tail;
    this.#rest = rest;
  }

  /** The template of a one-choice chunk's text that JSON.parse accepted, or null when it has no usable one. */
  static learn(data: string): ContentTemplate | null {
    const layout = chunkLayout(data);
    if (layout === null) return null;
    const tail = data.slice(layout.deltaEnd, layout.rest);
    const rest = data.slice(layout.rest);
    if (tail.includes('"delta"') || tail.includes('\\') || rest.includes('"choices"') || rest.includes('\\')) return null;
    return new ContentTemplate(data.slice(0, layout.delta), tail, rest);
  }

  /**
   * The text a chunk adds, when it repeats the template around a plain text delta and nothing
   * after `choices` changes the fold; null otherwise (parse it then).
   */
  contentOf(data: string): string | null {
    // slice + === rather than startsWith: startsWith compares char by char, about eight times
    // the instructions for a prefix this long.
    const start = this.#prefix.length;
    if (data.slice(0, start) !== this.#prefix) return null;
    const from = start + CONTENT_OPEN.length;
    if (data.slice(start, from) !== CONTENT_OPEN) return null;
    let end = from;
    for (; end < data.length; end++) {
      const c = data.charCodeAt(end);
      if (c === QUOTE) break;
      // A backslash or a control character: JSON.parse decides.
      if (c === BACKSLASH || c < 0x20) return null;
    }
    if (data.charCodeAt(end + 1) !== CLOSE_BRACE) return null;
    const after = end + 2;
    const tail = this.#tail;
    if (data.slice(after, after + tail.length) !== tail) return null;
    const rest = data.slice(after + tail.length);
    if (rest !== this.#rest && !foldsNothing(rest)) return null;
    return data.slice(from, end);
  }
}
