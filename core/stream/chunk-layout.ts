// Where the parts of a one-choice chat chunk's text lie, found by walking its members (keys read
// as their text stands, so an escaped or look-alike key is not taken for the real one). The
// chunk templates cut their text at these positions.
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, closeOf, findMember, skipSpace } from './json-walk.js';

export interface ChunkLayout {
  /** Just after the top-level `{`. */
  top: number;
  /** Where the `choices` key starts. */
  choicesKey: number;
  /** Just after the `{` of the only choice. */
  choice: number;
  /** Where that choice's `delta` key starts, and where its `{` value starts and ends. */
  deltaKey: number;
  delta: number;
  deltaEnd: number;
  /** Just after the choice's `}`. */
  choiceEnd: number;
  /** Where the text after the `]` of `choices` starts (a `,` or the closing `}`). */
  rest: number;
}

/** The layout of `data`, or null when it is not a chunk with exactly one choice holding an object delta. */
export function chunkLayout(data: string): ChunkLayout | null {
  const top = skipSpace(data, 0);
  if (data.charCodeAt(top) !== OPEN_BRACE) return null;
  const choices = findMember(data, top + 1, 'choices');
  if (choices === null || data.charCodeAt(choices.value) !== OPEN_BRACKET) return null;
  const choice = skipSpace(data, choices.value + 1);
  if (data.charCodeAt(choice) !== OPEN_BRACE) return null;
  const delta = findMember(data, choice + 1, 'delta');
  if (delta === null || data.charCodeAt(delta.value) !== OPEN_BRACE) return null;
  const deltaEnd = closeOf(data, delta.value + 1, 1);
  if (deltaEnd === -1) return null;
  const choiceEnd = closeOf(data, deltaEnd, 1);
  if (choiceEnd === -1) return null;
  // Exactly one choice: the array closes right after it.
  const close = skipSpace(data, choiceEnd);
  if (data.charCodeAt(close) !== CLOSE_BRACKET) return null;
  const rest = skipSpace(data, close + 1);
  const restAt = data.charCodeAt(rest);
  if (restAt !== COMMA && restAt !== CLOSE_BRACE) return null;
  return { top: top + 1, choicesKey: choices.key, choice: choice + 1, deltaKey: delta.key, delta: delta.value, deltaEnd, choiceEnd, rest };
}
