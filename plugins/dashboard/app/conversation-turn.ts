// One call of a conversation as text: the last user message of its request and the answer,
// read from the bodies as the audit log stores them (GET /admin/audit/{id}): Chat Completions,
// Responses and Anthropic Messages (and Gemini's generateContent, through passthrough), a stream
// reassembled into its final object, or, for a passthrough stream, its SSE transcript. Pure:
// no DOM, so the gateway's tests run it on stored entries.

export interface Turn {
  /** The last message the user sent in this call; null when the request holds none. */
  user: string | null;
  /** What the model answered; null when the answer holds no text (an error, a cut body). */
  assistant: string | null;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function turnOf(request: unknown, response: unknown): Turn {
  return { user: lastUserMessage(request), assistant: typeof response === 'string' ? streamedAnswer(response) : answerOf(response) };
}

/** Chat and Anthropic `messages`, Responses `input`, Gemini `contents`: the last one from the user. */
function lastUserMessage(request: unknown): string | null {
  if (!isObject(request)) return null;
  if (typeof request['input'] === 'string') return request['input'];
  const turns = list(request['messages'] ?? request['input'] ?? request['contents']);
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (isObject(turn) && turn['role'] === 'user') return textOf(turn['content'] ?? turn['parts']);
  }
  return null;
}

/** A message's content: a string, or parts of text (`text`, `input_text`, `output_text`, Gemini's `{text}`) and other things named in brackets. */
function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  const parts = list(content).map(partText).filter((t) => t !== '');
  return parts.length === 0 ? null : parts.join('\n');
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  // Gemini marks its thought summaries; the answer is the rest.
  if (!isObject(part) || part['thought'] === true) return '';
  if (typeof part['text'] === 'string') return part['text'];
  if (typeof part['refusal'] === 'string') return part['refusal'];
  const type = part['type'];
  if (type === 'tool_use' || type === 'function_call') return `[tool call: ${String(part['name'])}]`;
  if (type === 'tool_result' || type === 'function_call_output') return `[tool result]`;
  if (typeof type === 'string' && type !== 'thinking' && type !== 'reasoning' && type !== 'redacted_thinking') return `[${type.replace(/_/g, ' ')}]`;
  return '';
}

/** A chat completion, a Responses object, an Anthropic message, a Gemini answer. */
function answerOf(response: unknown): string | null {
  if (!isObject(response)) return null;
  const choice = list(response['choices'])[0];
  if (isObject(choice) && isObject(choice['message'])) {
    const message = choice['message'];
    const calls = list(message['tool_calls']).map((c) => (isObject(c) && isObject(c['function']) ? `[tool call: ${String(c['function']['name'])}]` : ''));
    return joined([textOf(message['content']) ?? (typeof message['refusal'] === 'string' ? message['refusal'] : null), ...calls]);
  }
  if (Array.isArray(response['output'])) return joined(response['output'].map((item) => (isObject(item) && item['type'] === 'message' ? textOf(item['content']) : partText(item))));
  if (response['type'] === 'message') return textOf(response['content']);
  const candidate = list(response['candidates'])[0];
  if (isObject(candidate) && isObject(candidate['content'])) return textOf(candidate['content']['parts']);
  return null;
}

/** A passthrough stream's transcript: the text its events carried, in order. */
function streamedAnswer(transcript: string): string | null {
  let text = '';
  let completed: string | null = null;
  for (const line of transcript.split('\n')) {
    if (!line.startsWith('data:')) continue;
    let event: unknown;
    try {
      event = JSON.parse(line.slice(5));
    } catch {
      continue;
    }
    if (!isObject(event)) continue;
    // A Responses stream's last event carries the whole answer.
    if (event['type'] === 'response.completed') completed = answerOf(event['response']);
    else text += deltaText(event);
  }
  return completed ?? (text === '' ? null : text);
}

function deltaText(event: Json): string {
  const delta = event['delta'];
  // Anthropic's content_block_delta, Responses' output_text.delta.
  if (isObject(delta) && delta['type'] === 'text_delta' && typeof delta['text'] === 'string') return delta['text'];
  if (event['type'] === 'response.output_text.delta' && typeof delta === 'string') return delta;
  const choice = list(event['choices'])[0];
  if (isObject(choice) && isObject(choice['delta']) && typeof choice['delta']['content'] === 'string') return choice['delta']['content'];
  const candidate = list(event['candidates'])[0];
  if (isObject(candidate) && isObject(candidate['content'])) return textOf(candidate['content']['parts']) ?? '';
  return '';
}

function joined(texts: Array<string | null>): string | null {
  const kept = texts.filter((t): t is string => t !== null && t !== '');
  return kept.length === 0 ? null : kept.join('\n');
}
