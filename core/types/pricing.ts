// The pricing shape of the API specification. Every `*_per_mtok` is USD per million tokens;
// `per_*` fields are USD per unit (image, request, character, second, page).

export interface PricingTier {
  /** This tier applies while the prompt has at most this many tokens. */
  up_to_tokens?: number;
  up_to_mtok?: number;
  input_per_mtok?: number;
  output_per_mtok?: number;
  cached_input_per_mtok?: number;
  cache_write_per_mtok?: number;
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
  pricing: {
    input_per_mtok?: number;
    output_per_mtok?: number;
    cached_input_per_mtok?: number;
    cache_write_per_mtok?: number;
  };
}

export interface Pricing {
  currency?: string;
  input_per_mtok?: number;
  output_per_mtok?: number;
  cached_input_per_mtok?: number;
  cache_write_per_mtok?: number;
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
  tiers?: PricingTier[];
  time_windows?: TimeWindow[];
}
