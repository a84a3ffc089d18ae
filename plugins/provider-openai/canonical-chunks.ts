// OpenAI's own serialisation of a plain chat chunk, read with one regular expression. OpenAI
// writes every chunk with the same members in the same order; the chunks of a stream differ only
// in their values (the text token, the finish reason, the obfuscation padding). A sticky pattern
// of that exact text takes a whole run of such events from a burst in one native scan: no SSE
// line splitting and no parse. Its gain over parsing each event is in bench/README.md.
//
// It is exact because the pattern admits only text whose JSON.parse has no choice: every member
// is named once, in a fixed order (no duplicate key can win), every string is free of escapes and
// control characters (its text is its value), numbers are plain integers, `usage` can only be
// null. What the fold does with such a chunk is what ChatCompletionBuilder.add does with its parse.
import type { ChatCompletionBuilder } from '../../core/stream/chat-completion-builder.js';
import type { FinishReason } from '../../core/types/chat.js';

/** A JSON string's text that is its own value: no quote, backslash or control character. */
const PLAIN = '[^"\\\\\\x00-\\x1f]*';

function chunkPattern(captureHead: boolean): RegExp {
  const plain = (capture: boolean): string => (capture ? `(${PLAIN})` : PLAIN);
  return new RegExp(
    'data: \\{' +
      `"id":"${plain(captureHead)}","object":"chat\\.completion\\.chunk","created":${captureHead ? '(0|[1-9]\\d*)' : '(?:0|[1-9]\\d*)'},"model":"${plain(captureHead)}"` +
      `(?:,"service_tier":"${PLAIN}")?` +
      `(?:,"system_fingerprint":"(${PLAIN})")?` +
      // One choice, index 0; the delta: nothing, a text token (after the role, in the first
      // chunk; with OpenAI's `refusal: null`), or the role alone.
      `,"choices":\\[\\{"index":0,"delta":\\{(?:(?:"role":"assistant",)?"content":"(${PLAIN})"(?:,"refusal":null)?|"role":"assistant")?\\}` +
      `,"logprobs":null,"finish_reason":(?:null|"(${PLAIN})")\\}\\]` +
      `(?:,"usage":null)?(?:,"obfuscation":"${PLAIN}")?` +
      '\\}\\n\\n',
    'y',
  );
}

// The first chunk of a stream names its id, creation time and model; after it those are read
// from nowhere (the builder keeps the first chunk's), so the pattern leaves them uncaptured.
const FIRST = chunkPattern(true);
const NEXT = chunkPattern(false);

/**
 * Folds the canonical chunk events of `text` that follow each other from `at` into `completion`;
 * returns where the first event that is not one starts (or the end of the text).
 */
export function foldCanonicalChunks(text: string, at: number, completion: ChatCompletionBuilder): number {
  for (;;) {
    const first = !completion.started;
    const pattern = first ? FIRST : NEXT;
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (m === null) return at;
    if (first) completion.start(m[1]!, Number(m[2]), m[3]!);
    foldMatch(m, first ? 4 : 1, completion);
    at = pattern.lastIndex;
  }
}

/** The groups from `g` on: system fingerprint, text token, finish reason. */
function foldMatch(m: RegExpExecArray, g: number, completion: ChatCompletionBuilder): void {
  const fingerprint = m[g];
  if (fingerprint !== undefined) completion.fingerprint(fingerprint);
  const content = m[g + 1];
  if (content !== undefined) completion.addContent(0, content);
  const reason = m[g + 2];
  // An empty reason is falsy: add() would not record it either.
  if (reason) completion.finish(0, reason as FinishReason);
}
