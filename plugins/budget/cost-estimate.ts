// What a call may cost at most, before it is made: the token estimate priced at the target
// model's catalog rates and the service tier asked for, as the price stage will price the real
// usage. Null: no known price.
import type { RequestContext } from '../../core/context.js';
import { emptyUsage } from '../../core/types/usage.js';
import type { EstimateOptions } from '../limit-state/options.js';
import { estimateTokens } from '../limit-state/token-estimate.js';
import { calculateCost } from '../pricing/calculate.js';
import { requestedServiceTier } from '../pricing/index.js';

export function estimateCost(ctx: RequestContext, options: EstimateOptions): bigint | null {
  const tokens = estimateTokens(ctx, options);
  const usage = emptyUsage();
  usage.input_tokens = tokens.input;
  usage.output_tokens = tokens.output;
  usage.total_tokens = tokens.input + tokens.output;
  return calculateCost(usage, ctx.target?.metadata?.pricing, { at: ctx.startedAt, serviceTier: requestedServiceTier(ctx) }).pico_usd;
}
