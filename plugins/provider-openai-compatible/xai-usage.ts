// xAI's Chat Completions count reasoning outside `completion_tokens`: the recorded grok-3-mini
// answer (test/fixtures/recorded/xai/chat_completion.json) has prompt 10 + completion 35 +
// reasoning 375 = total 420, and its billed cost (2073250 ticks) is exactly 7 uncached + 3 cached
// input tokens and 410 output tokens at grok-3-mini's prices. Neutral usage counts reasoning
// inside output_tokens, so it is added back whenever the total shows it was left out; should xAI
// switch to OpenAI's counting, the total no longer adds up that way and nothing is added. Its
// Responses API already counts reasoning inside output_tokens (responses.json: 276 = 4 + 272).
// Both report the billed cost as `cost_in_usd_ticks`, 1 USD = 10^10 ticks
// (docs.x.ai/developers/cost-tracking).
import type { ChatUsage } from '../../core/types/chat.js';
import type { ResponsesUsage } from '../../core/types/responses.js';
import type { Usage } from '../../core/types/usage.js';
import { usageFromChat, usageFromResponses } from '../../core/usage-mapping.js';
import { tokenCount, usageNumber } from './usage-number.js';

const TICKS_PER_USD = 1e10;

export function xaiChatUsage(u: ChatUsage): Usage {
  const usage = usageFromChat(u);
  const reasoning = usage.reasoning_tokens;
  const completion = tokenCount(u.completion_tokens) ?? 0;
  const total = tokenCount(u.total_tokens);
  if (reasoning > 0 && total !== null && total === usage.input_tokens + completion + reasoning) usage.output_tokens = completion + reasoning;
  return withXaiCost(usage);
}

export function xaiResponsesUsage(u: ResponsesUsage): Usage {
  return withXaiCost(usageFromResponses(u));
}

/** Sets provider_cost_usd from the `cost_in_usd_ticks` of the raw usage, when there is one. */
export function withXaiCost(usage: Usage): Usage {
  const raw = usage.raw;
  const ticks = typeof raw === 'object' && raw !== null ? usageNumber((raw as Record<string, unknown>)['cost_in_usd_ticks']) : null;
  if (ticks !== null) usage.provider_cost_usd = ticks / TICKS_PER_USD;
  return usage;
}
