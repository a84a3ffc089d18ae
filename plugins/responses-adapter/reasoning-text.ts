// Chat providers disagree on where reasoning text goes: `reasoning_content` (DeepSeek, and the
// gateway's own Anthropic and Gemini translators) or `reasoning` (OpenRouter, Groq, vLLM).
import type { ChatDelta, ChatMessage } from '../../core/types/chat.js';

export function reasoningText(m: ChatMessage | ChatDelta): string {
  if (typeof m.reasoning_content === 'string') return m.reasoning_content;
  const other = m['reasoning'];
  return typeof other === 'string' ? other : '';
}
