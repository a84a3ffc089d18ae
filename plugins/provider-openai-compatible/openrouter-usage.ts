// OpenRouter adds the call's price to every usage object: `cost`, in credits (1 credit = 1 USD),
// returned unasked since usage accounting became automatic (`usage: {include: true}` is now a
// no-op; openrouter.ai/docs/use-cases/usage-accounting). With a BYOK key `cost` is only
// OpenRouter's fee and the provider bills the operator's own key
// `cost_details.upstream_inference_cost`, so the call costs both (`is_byok` says which case it is).
// Prompt-cache writes come as `prompt_tokens_details.cache_write_tokens`, part of `prompt_tokens`.
import type { ChatUsage } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import { usageFromChat } from '../../core/usage-mapping.js';
import { tokenCount, usageNumber } from './usage-number.js';

export function openrouterUsage(u: ChatUsage): Usage {
  const usage = usageFromChat(u);
  const writes = tokenCount(u.prompt_tokens_details?.['cache_write_tokens']);
  if (writes !== null) usage.cache_write_tokens = writes;
  const cost = openrouterCostUsd(u);
  if (cost !== null) usage.provider_cost_usd = cost;
  return usage;
}

export function openrouterCostUsd(u: ChatUsage): number | null {
  const fee = usageNumber(u['cost']);
  if (fee === null) return null;
  if (u['is_byok'] !== true) return fee;
  const details = u['cost_details'];
  const upstream = typeof details === 'object' && details !== null ? usageNumber((details as Record<string, unknown>)['upstream_inference_cost']) : null;
  // Summed in picodollars, the unit pricing works in, so 0.1 + 0.2 does not become 0.30000000000000004.
  return upstream === null ? fee : (Math.round(fee * 1e12) + Math.round(upstream * 1e12)) / 1e12;
}
