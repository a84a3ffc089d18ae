// Anthropic usage -> the gateway's neutral Usage and OpenAI's usage object.
// Anthropic's input_tokens EXCLUDES cached tokens: input_tokens, cache_read_input_tokens and
// cache_creation_input_tokens are disjoint and together make the whole prompt. OpenAI's
// prompt_tokens and the neutral input_tokens are the whole prompt, so all three are summed.
// cache_creation splits the writes by how long they live: 1-hour writes cost more than 5-minute
// ones, so their count is kept apart. Web searches and the service tier are billed too.
import type { ChatUsage } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import type { AnthropicUsage } from './types.js';

export function usageFromAnthropic(u: AnthropicUsage): Usage {
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const cacheWrite = u.cache_creation_input_tokens ?? 0;
  const input = u.input_tokens + cacheRead + cacheWrite;
  const usage: Usage = {
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
  const writes1h = u.cache_creation?.ephemeral_1h_input_tokens;
  if (typeof writes1h === 'number' && writes1h > 0) usage.cache_write_1h_tokens = writes1h;
  const searches = (u['server_tool_use'] as { web_search_requests?: unknown } | null | undefined)?.web_search_requests;
  if (typeof searches === 'number' && searches > 0) usage.web_search_requests = searches;
  if (typeof u.service_tier === 'string') usage.service_tier = u.service_tier;
  return usage;
}

export function chatUsageFrom(usage: Usage): ChatUsage {
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_input_tokens },
  };
}
