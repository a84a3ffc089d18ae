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
import type { ChatUsage } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import type { GeminiModalityTokenCount, GeminiUsageMetadata } from './types.js';

function audioTokens(details: GeminiModalityTokenCount[] | undefined): number {
  return (details ?? []).filter((d) => d.modality === 'AUDIO').reduce((sum, d) => sum + (d.tokenCount ?? 0), 0);
}

export function usageFromGemini(meta: GeminiUsageMetadata | undefined): Usage {
  const m = meta ?? {};
  const input = (m.promptTokenCount ?? 0) + (m.toolUsePromptTokenCount ?? 0);
  const reasoning = m.thoughtsTokenCount ?? 0;
  const output = (m.candidatesTokenCount ?? 0) + reasoning;
  return {
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
