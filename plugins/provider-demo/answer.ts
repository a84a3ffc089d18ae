// What the demo models say: echo repeats the last user message, lorem writes filler text of
// the requested length.
import type { ChatRequest } from '../../core/types/chat.js';
import { countTokens, messageText } from './tokens.js';

const LOREM = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore ' +
  'magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo ' +
  'consequat duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur'
).split(' ');

export interface DemoAnswer {
  text: string;
  finishReason: 'stop' | 'length';
}

export function answer(model: string, req: ChatRequest): DemoAnswer {
  const limit = req.max_completion_tokens ?? req.max_tokens ?? null;
  // Without a client limit the default length is the model's own choice: a normal stop.
  if (model === 'lorem') return { text: lorem(limit ?? 60), finishReason: limit === null ? 'stop' : 'length' };
  let last = '';
  for (let i = req.messages.length - 1; i >= 0; i--) {
    if (req.messages[i]!.role === 'user') {
      last = messageText(req.messages[i]!);
      break;
    }
  }
  if (limit !== null && countTokens(last) > limit) return { text: last.slice(0, limit * 4), finishReason: 'length' };
  return { text: last, finishReason: 'stop' };
}

function lorem(tokens: number): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; countTokens(words.join(' ')) < tokens; i++) {
    const word = LOREM[i % LOREM.length]!;
    words.push(i === 0 ? 'Lorem' : word);
    length += word.length + 1;
  }
  // The closing period counts too: max_tokens is a ceiling, never exceeded by one.
  let text = words.join(' ');
  while (countTokens(text + '.') > tokens && words.length > 1) {
    words.pop();
    text = words.join(' ');
  }
  if (countTokens(text + '.') <= tokens) text += '.';
  return text;
}

/** The answer in stream-sized pieces: a word each, with its leading space. */
export function pieces(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i === text.length || text[i] === ' ') {
      out.push(text.slice(start, i));
      start = i;
    }
  }
  return out;
}
