// Anthropic has no `response_format`. Of its documented ways to get JSON, this uses the one
// from "Increase output consistency": state the format (and schema) in the system prompt.
// Rejected alternatives:
//   - a forced tool whose input_schema is the schema: the answer then arrives as a tool_use
//     block, so response and stream translators would need request state to turn it back
//     into content, and Anthropic forbids forced tool use together with extended thinking
//     and with the client's own tool_choice;
//   - prefilling the assistant turn with "{": not allowed with extended thinking, and the
//     "{" is missing from the answer and would have to be put back;
//   - native structured outputs: a beta behind a header, limited to some models.
// The cost: JSON is very likely, not guaranteed, which clients of json_object mode are
// told to validate anyway.
import type { ResponseFormat } from '../../core/types/chat.js';

const JSON_ONLY = 'Respond with a single valid JSON object and nothing else: no Markdown code fences, no text before or after it.';

/** The system instruction that stands in for `response_format`, or null for plain text. */
export function jsonInstruction(format: ResponseFormat | undefined): string | null {
  if (format === undefined || format.type === 'text') return null;
  if (format.type === 'json_object') return JSON_ONLY;
  const { name, description, schema } = format.json_schema;
  const lines = [JSON_ONLY, `The object must conform to the JSON Schema named "${name}"${description === undefined ? '' : ` (${description})`}:`];
  lines.push(JSON.stringify(schema ?? {}));
  return lines.join('\n');
}
