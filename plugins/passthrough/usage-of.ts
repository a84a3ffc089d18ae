// The usage a provider reported in one of its own JSON values (a whole answer, or one stream
// event), whatever its API: OpenAI-style `usage.prompt_tokens`, Responses
// `usage.input_tokens` (or `response.usage` in its stream events), Anthropic's
// `usage.input_tokens` (told apart from Responses by the provider type: Anthropic's
// input_tokens leave cached tokens out), Gemini's `usageMetadata`. The providers' own mappers
// turn it into the neutral Usage, so a passthrough call is counted like a translated one.
import type { ChatUsage } from '../../core/types/chat.js';
import type { ResponsesUsage } from '../../core/types/responses.js';
import type { Usage } from '../../core/types/usage.js';
import { usageFromChat, usageFromResponses, withServiceTier } from '../../core/usage-mapping.js';
import type { AnthropicUsage } from '../provider-anthropic/types.js';
import { usageFromAnthropic } from '../provider-anthropic/usage.js';
import type { GeminiUsageMetadata } from '../provider-gemini/types.js';
import { usageFromGemini } from '../provider-gemini/usage.js';
import { isRecord } from '../provider-gemini/is-record.js';

/** How a provider's `usage.input_tokens` is meant: Anthropic's excludes cached tokens. */
export type UsageDialect = 'anthropic' | 'openai';

export function usageOf(value: unknown, dialect: UsageDialect): Usage | null {
  if (Array.isArray(value)) {
    // Gemini's streamGenerateContent without alt=sse answers one JSON array of chunks.
    for (let i = value.length - 1; i >= 0; i--) {
      const usage = usageOf(value[i], dialect);
      if (usage !== null) return usage;
    }
    return null;
  }
  if (!isRecord(value)) return null;
  const meta = value['usageMetadata'];
  if (isRecord(meta)) return usageFromGemini(meta as GeminiUsageMetadata);
  // An OpenAI answer names the service tier that served it beside its usage; it sets the price.
  const usage = value['usage'];
  if (isRecord(usage)) return tiered(mapUsage(usage, dialect), value['service_tier']);
  const response = value['response'];
  if (isRecord(response) && isRecord(response['usage'])) return tiered(mapUsage(response['usage'], 'openai'), response['service_tier']);
  return null;
}

function tiered(usage: Usage | null, tier: unknown): Usage | null {
  return usage === null ? null : withServiceTier(usage, tier);
}

function mapUsage(usage: Record<string, unknown>, dialect: UsageDialect): Usage | null {
  if (typeof usage['prompt_tokens'] === 'number') return usageFromChat(usage as unknown as ChatUsage);
  if (!hasTokenCounts(usage)) return null;
  return dialect === 'anthropic' ? usageFromAnthropic(usage) : usageFromResponses(usage as unknown as ResponsesUsage);
}

/** Both counts present: what the Anthropic and Responses mappers add up (a partial object would give NaN). */
export function hasTokenCounts(usage: Record<string, unknown>): usage is AnthropicUsage {
  return typeof usage['input_tokens'] === 'number' && typeof usage['output_tokens'] === 'number';
}
