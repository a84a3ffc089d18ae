// A stand-in tokenizer: about four characters a token, the rule of thumb for English text
// with OpenAI's tokenizers, so the demo's usage and cost look like a real provider's.
import type { ChatMessage } from '../../core/types/chat.js';

export function countTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.round(text.length / 4));
}

export function messageText(message: ChatMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) if (part.type === 'text') text += (text === '' ? '' : '\n') + part.text;
  return text;
}

/** Prompt tokens the way OpenAI counts chat prompts: each message costs a few tokens of framing. */
export function countPromptTokens(messages: readonly ChatMessage[]): number {
  let tokens = 3;
  for (const m of messages) tokens += 4 + countTokens(messageText(m));
  return tokens;
}
