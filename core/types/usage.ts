// Provider-neutral usage: every provider translator fills this from its own usage fields,
// so pricing and accounting never need to know a provider's wire format.
// Token counts are disjoint where it matters for money: `cached_input_tokens` and
// `cache_write_tokens` are parts of `input_tokens`; `reasoning_tokens` is part of `output_tokens`.

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Prompt tokens read from the provider's prompt cache (subset of input_tokens). */
  cached_input_tokens: number;
  /** Prompt tokens written to the provider's prompt cache (subset of input_tokens). */
  cache_write_tokens: number;
  /** Of cache_write_tokens, those written to a 1-hour cache, priced apart. */
  cache_write_1h_tokens?: number;
  /** Hidden reasoning tokens (subset of output_tokens). */
  reasoning_tokens: number;
  audio_input_tokens: number;
  audio_output_tokens: number;
  /** Web searches the provider ran for the call and bills per search. */
  web_search_requests?: number;
  /** The service tier the provider says served the call (`flex`, `priority`, `standard`, `batch`). */
  service_tier?: string;
  /** Cost the provider reported itself (e.g. OpenRouter), in USD; wins over computed cost. */
  provider_cost_usd?: number;
  /** The provider's usage object as received, for whoever records the call. */
  raw?: unknown;
}

export function emptyUsage(): Usage {
  return {
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    cached_input_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    audio_input_tokens: 0,
    audio_output_tokens: 0,
  };
}
