// The provider-neutral usage in the Responses shape. Built from the neutral usage, not the
// chat usage object, so that providers whose chat translators compute usage themselves
// (Anthropic, Gemini) report the same numbers here as in pricing.
import type { ResponsesUsage } from '../../core/types/responses.js';
import type { Usage } from '../../core/types/usage.js';

export function toResponsesUsage(u: Usage): ResponsesUsage {
  return {
    input_tokens: u.input_tokens,
    input_tokens_details: { cached_tokens: u.cached_input_tokens },
    output_tokens: u.output_tokens,
    output_tokens_details: { reasoning_tokens: u.reasoning_tokens },
    total_tokens: u.total_tokens,
  };
}
