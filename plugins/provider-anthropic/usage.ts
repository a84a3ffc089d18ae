// Anthropic usage -> the gateway's neutral Usage and OpenAI's usage object.
// Anthropic's input_tokens EXCLUDES cached tokens: input_tokens, cache_read_input_tokens and
// cache_creation_input_tokens are disjoint and together make the whole prompt. OpenAI's
// prompt_tokens and the neutral input_tokens are the whole prompt, so all three are summed.
import type { ChatUsage } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import type { AnthropicUsage } from './types.js';

export function usageFromAnthropic(u: AnthropicUsage): Usage {
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const cacheWrite = u.cache_creation_input_tokens ?? 0;
  const input = u.input_tokens + cacheRead + cacheWrite;
  return {
    input_tokens: input,
    output_tokens: u.output_tokens,
    total_tokens: input + u.output_tokens,
    cached_input_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
    // Anthropic bills thinking as output without counting it separately; it stays inside output_tokens.
    reasoning_tokens: 0,
    audio_input_tokens: 0,
    audio_output_tokens: 0,
    raw: u,
  };
}

export function chatUsageFrom(usage: Usage): ChatUsage {
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_input_tokens },
  };
}
