// OpenAI's `reasoning_effort` has no Anthropic counterpart; the closest documented knob is
// extended thinking with an explicit token budget. Anthropic's rules for that budget:
//   - budget_tokens >= 1024 (documented minimum),
//   - budget_tokens < max_tokens (thinking is counted inside max_tokens).
import type { ReasoningEffort } from '../../core/types/chat.js';
import type { AnthropicThinkingConfig } from './types.js';

export const MIN_THINKING_BUDGET = 1024;

/**
 * Level -> budget. `low` is Anthropic's minimum; each step roughly quadruples (then doubles)
 * the room, and 32k (`xhigh`) is where Anthropic starts recommending batch processing.
 * `max` asks for more than most models can emit: it is meant to be cut down to the model's
 * output ceiling by `fitThinking`.
 */
const BUDGET_BY_EFFORT: Readonly<Record<ReasoningEffort, number | null>> = {
  none: null,
  minimal: null,
  low: 1024,
  medium: 4096,
  high: 16384,
  xhigh: 32768,
  max: 65536,
};

/** The thinking budget for an effort level, or null when the level means "no thinking". */
export function mapReasoningEffort(effort: ReasoningEffort): number | null {
  return BUDGET_BY_EFFORT[effort] ?? null;
}

export interface FittedThinking {
  thinking: AnthropicThinkingConfig;
  maxTokens: number;
}

/**
 * Make a budget and the client's max_tokens satisfy Anthropic's rules.
 *
 * OpenAI clients usually size max_tokens for the visible answer. Anthropic counts thinking
 * inside max_tokens, so a budget at or above the client's max_tokens would either be
 * rejected or leave no room for the answer; in that case max_tokens is raised to
 * budget + the client's max_tokens, keeping the answer room the client asked for.
 *
 * `ceiling` is the model's max output when known. Past it, max_tokens is capped and the
 * budget shrinks, but never below half the ceiling's worth of answer room, so that `max`
 * effort still leaves an answer. Null when no valid budget fits under the ceiling.
 */
export function fitThinking(budget: number, answerTokens: number, ceiling?: number): FittedThinking | null {
  let maxTokens = budget < answerTokens ? answerTokens : budget + answerTokens;
  let fitted = budget;
  if (ceiling !== undefined && maxTokens > ceiling) {
    maxTokens = ceiling;
    const answerRoom = Math.min(answerTokens, Math.floor(ceiling / 2));
    fitted = Math.max(MIN_THINKING_BUDGET, Math.min(budget, ceiling - answerRoom));
  }
  if (fitted >= maxTokens) return null;
  return { thinking: { type: 'enabled', budget_tokens: fitted }, maxTokens };
}
