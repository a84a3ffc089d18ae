// Most chunks of a chat stream are one choice's text delta and nothing else. Reading just that
// text from the raw JSON costs a fraction of a full JSON.parse of the chunk, and streams have
// hundreds of them; anything else (roles, tool calls, usage, finish reasons, several choices,
// reasoning, refusals, errors) falls back to the full parse.

const CONTENT_KEY = '"content":"';
/** Fields whose presence means the chunk carries more than a text delta. */
const OTHER_FIELDS = ['"tool_calls"', '"role"', '"usage":{', '"reasoning', '"refusal":"', '"error"', '"function_call"', '"audio"'];

/** The text delta of a plain single-choice content chunk, or null when the chunk needs a full parse. */
export function plainContentDelta(data: string): string | null {
  const start = data.indexOf(CONTENT_KEY);
  if (start === -1) return null;
  if (data.indexOf('"finish_reason":null') === -1) return null;
  // One choice only: a second "index" would be another choice (or a tool call index).
  const first = data.indexOf('"index":');
  if (first === -1 || data.indexOf('"index":', first + 8) !== -1 || data.charCodeAt(first + 8) !== 48 /* 0 */) return null;
  for (const field of OTHER_FIELDS) if (data.indexOf(field) !== -1) return null;
  // The string literal: up to the first quote not escaped by a backslash.
  let end = start + CONTENT_KEY.length;
  let escaped = false;
  for (;;) {
    const c = data.charCodeAt(end);
    if (Number.isNaN(c)) return null;
    if (escaped) escaped = false;
    else if (c === 92 /* \ */) escaped = true;
    else if (c === 34 /* " */) break;
    end++;
  }
  // A second "content" would be ambiguous (it cannot be inside the text: quotes there are escaped).
  if (data.indexOf(CONTENT_KEY, end) !== -1) return null;
  const literal = data.slice(start + CONTENT_KEY.length - 1, end + 1);
  return literal.indexOf('\\') === -1 ? literal.slice(1, -1) : (JSON.parse(literal) as string);
}
