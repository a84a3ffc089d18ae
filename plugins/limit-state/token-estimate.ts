// How many tokens a request may use, known before the provider answers: the prompt from the
// size of the request body (an overestimate: JSON framing counts too), the output from the
// maximum the client asked for, else the model's maximum output from the catalog.
import type { RequestContext } from '../../core/context.js';
import type { Target } from '../../core/provider.js';
import type { EstimateOptions } from './options.js';

export interface TokenEstimate {
  input: number;
  output: number;
}

const OUTPUT_LIMIT_FIELDS = ['max_completion_tokens', 'max_tokens', 'max_output_tokens'] as const;

/** `target`: the model whose catalog maximum bounds the output (the routed one unless said). */
export function estimateTokens(ctx: RequestContext, options: EstimateOptions, target: Target | null = ctx.target): TokenEstimate {
  const input = Math.ceil((ctx.rawBody?.length ?? 0) / options.bytes_per_token);
  if (ctx.route.operation === 'embeddings') return { input, output: 0 };
  return { input, output: requestedOutput(ctx.body) ?? target?.metadata?.max_output_tokens ?? options.default_max_output_tokens };
}

function requestedOutput(body: Record<string, unknown> | null): number | null {
  if (body === null) return null;
  for (const field of OUTPUT_LIMIT_FIELDS) {
    const value = body[field];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  }
  return null;
}
