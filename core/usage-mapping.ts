// Usage in the client API's own shapes (Chat Completions, Responses) to the provider-neutral
// Usage. Shared by every provider that speaks those shapes natively.
import type { ChatUsage } from './types/chat.js';
import type { ResponsesUsage } from './types/responses.js';
import type { Usage } from './types/usage.js';

function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
}

export function usageFromChat(u: ChatUsage): Usage {
  const prompt = u.prompt_tokens_details;
  const completion = u.completion_tokens_details;
  const input = int(u.prompt_tokens);
  const output = int(u.completion_tokens);
  const usage: Usage = {
    input_tokens: input,
    output_tokens: output,
    total_tokens: int(u.total_tokens) || input + output,
    cached_input_tokens: int(prompt?.cached_tokens),
    cache_write_tokens: 0,
    reasoning_tokens: int(completion?.reasoning_tokens),
    audio_input_tokens: int(prompt?.audio_tokens),
    audio_output_tokens: int(completion?.audio_tokens),
    raw: u,
  };
  return usage;
}

export function usageFromResponses(u: ResponsesUsage): Usage {
  const input = int(u.input_tokens);
  const output = int(u.output_tokens);
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: int(u.total_tokens) || input + output,
    cached_input_tokens: int(u.input_tokens_details?.cached_tokens),
    cache_write_tokens: 0,
    reasoning_tokens: int(u.output_tokens_details?.reasoning_tokens),
    audio_input_tokens: 0,
    audio_output_tokens: 0,
    raw: u,
  };
}

/** Sets the service tier an answer reports beside its usage (the client API's top-level `service_tier`). */
export function withServiceTier(usage: Usage, tier: unknown): Usage {
  if (typeof tier === 'string' && tier !== '') usage.service_tier = tier;
  return usage;
}
