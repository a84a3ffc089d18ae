// What a call may cost at most, before it is made: the token estimate priced at the target
// model's catalog rates and the service tier asked for, as the price stage will price the real
// usage. A virtual model's call may be answered by any of its targets (failover), each at its
// own price: the estimate is the dearest of them. Null: the routed target has no known price.
import type { RequestContext } from '../../core/context.js';
import type { Target } from '../../core/provider.js';
import { emptyUsage } from '../../core/types/usage.js';
import type { EstimateOptions } from '../limit-state/options.js';
import { estimateTokens } from '../limit-state/token-estimate.js';
import { calculateCost } from '../pricing/calculate.js';
import { requestedServiceTier } from '../pricing/index.js';

/** `fallbacks`: the other targets that may answer; one without a known price adds nothing. */
export function estimateCost(ctx: RequestContext, options: EstimateOptions, fallbacks: readonly Target[]): bigint | null {
  let highest = targetCost(ctx, options, ctx.target);
  if (highest === null) return null;
  for (const target of fallbacks) {
    const cost = targetCost(ctx, options, target);
    if (cost !== null && cost > highest) highest = cost;
  }
  return highest;
}

function targetCost(ctx: RequestContext, options: EstimateOptions, target: Target | null): bigint | null {
  const tokens = estimateTokens(ctx, options, target);
  const usage = emptyUsage();
  usage.input_tokens = tokens.input;
  usage.output_tokens = tokens.output;
  usage.total_tokens = tokens.input + tokens.output;
  return calculateCost(usage, target?.metadata?.pricing, { at: ctx.startedAt, serviceTier: requestedServiceTier(ctx) }).pico_usd;
}
