// DeepSeek reports its context cache in fields of its own: `prompt_cache_hit_tokens` and
// `prompt_cache_miss_tokens`, and `prompt_tokens` "equals prompt_cache_hit_tokens +
// prompt_cache_miss_tokens" (api-docs.deepseek.com/api/create-chat-completion). So the hits are
// the cached part of the input and `prompt_tokens` stays the input. Reasoning tokens
// (deepseek-reasoner) are inside `completion_tokens`, as OpenAI counts them.
import type { ChatUsage } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import { usageFromChat } from '../../core/usage-mapping.js';
import { tokenCount } from './usage-number.js';

export function deepseekUsage(u: ChatUsage): Usage {
  const usage = usageFromChat(u);
  const hit = tokenCount(u['prompt_cache_hit_tokens']);
  if (hit !== null) usage.cached_input_tokens = hit;
  return usage;
}
