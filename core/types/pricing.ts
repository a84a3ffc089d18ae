// The pricing shape of the API specification. Every `*_per_mtok` is USD per million tokens;
// `per_*` fields are USD per unit (image, request, character, second, page, web search).
// docs/catalog.md documents every field.

/** The token rates that a tier, a time window or a service tier may replace. */
export interface TokenRates {
  input_per_mtok?: number;
  output_per_mtok?: number;
  cached_input_per_mtok?: number;
  /** Cache writes that live 5 minutes (a provider's default cache lifetime). */
  cache_write_per_mtok?: number;
  /** Cache writes that live 1 hour, where a provider offers the longer lifetime. */
  cache_write_1h_per_mtok?: number;
}

export interface PricingTier extends TokenRates {
  /** This tier applies while the prompt has at most this many tokens. */
  up_to_tokens?: number;
  up_to_mtok?: number;
}

export interface UtcRange {
  /** Three-letter lower-case day names (mon..sun); absent means every day. */
  days?: string[];
  /** "HH:MM", inclusive. */
  start: string;
  /** "HH:MM", exclusive; an end before the start wraps past midnight. */
  end: string;
}

export interface TimeWindow {
  label?: string;
  utc_ranges: UtcRange[];
  pricing: TokenRates;
}

export interface Pricing extends TokenRates {
  currency?: string;
  reasoning_output_per_mtok?: number;
  audio_input_per_mtok?: number;
  audio_output_per_mtok?: number;
  output_image_per_mtok?: number;
  batch_input_per_mtok?: number;
  batch_output_per_mtok?: number;
  input_per_image?: number;
  per_image?: number;
  per_request?: number;
  per_character_input?: number;
  per_second_input?: number;
  per_second_output?: number;
  per_page?: number;
  /** USD per web search the provider reports it ran for the call (a server-side tool). */
  per_web_search?: number;
  tiers?: PricingTier[];
  time_windows?: TimeWindow[];
  /**
   * Rates of a provider's service tier (`flex`, `priority`, ...),
   * by the name the provider uses: the tier it reports in its answer, else the one requested.
   */
  service_tiers?: Record<string, TokenRates>;
}
