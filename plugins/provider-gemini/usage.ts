// Gemini usageMetadata as provider-neutral Usage and as OpenAI ChatUsage.
//
// Gemini counts thoughts apart from the answer: candidatesTokenCount is the visible answer
// only, and thoughtsTokenCount sits beside it (totalTokenCount = prompt + toolUsePrompt +
// candidates + thoughts; a 2.5 Flash call quoted in mozilla-ai/any-llm#1290 reports
// 20 + 198 + 405 = 623). Thought tokens are billed at the output rate, so output = candidates +
// thoughts, and reasoning_tokens (the thoughts) is a subset of it, as Usage requires.
// promptTokenCount already includes cachedContentTokenCount, so cached_input_tokens is a subset
// of input; tool-use prompt tokens (results of Gemini-run tools fed back to the model) are
// prompt tokens too.
// The service tier that served the call (flex, priority) comes in the `x-gemini-service-tier`
// response header, or as usageMetadata.serviceTier; a priority call downgraded to standard says so.
import type { ChatUsage } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import type { GeminiModalityTokenCount, GeminiUsageMetadata } from './types.js';

function audioTokens(details: GeminiModalityTokenCount[] | undefined): number {
  return (details ?? []).filter((d) => d.modality === 'AUDIO').reduce((sum, d) => sum + (d.tokenCount ?? 0), 0);
}

/** The served tier in the names the catalog uses: `SERVICE_TIER_PRIORITY` and `priority` are both `priority`. */
export function geminiServiceTier(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value.toLowerCase().replace(/^service_tier_/, '');
}

export function usageFromGemini(meta: GeminiUsageMetadata | undefined, servedTier?: string): Usage {
  const m = meta ?? {};
  const input = (m.promptTokenCount ?? 0) + (m.toolUsePromptTokenCount ?? 0);
  const reasoning = m.thoughtsTokenCount ?? 0;
  const output = (m.candidatesTokenCount ?? 0) + reasoning;
  const usage: Usage = {
    input_tokens: input,
    output_tokens: output,
    // Computed, not totalTokenCount, so input + output = total always holds for accounting;
    // the reported figure stays in `raw`.
    total_tokens: input + output,
    cached_input_tokens: m.cachedContentTokenCount ?? 0,
    // Gemini bills cache creation as storage time, not per request: nothing is written here.
    cache_write_tokens: 0,
    reasoning_tokens: reasoning,
    audio_input_tokens: audioTokens(m.promptTokensDetails),
    audio_output_tokens: audioTokens(m.candidatesTokensDetails),
    raw: meta ?? null,
  };
  const tier = geminiServiceTier(m['serviceTier']) ?? servedTier;
  if (tier !== undefined) usage.service_tier = tier;
  return usage;
}

export function chatUsageFrom(usage: Usage): ChatUsage {
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_input_tokens, audio_tokens: usage.audio_input_tokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens, audio_tokens: usage.audio_output_tokens },
  };
}
