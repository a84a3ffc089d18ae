// Which prompt-size tier prices a call (e.g. gemini-2.5-pro costs more above 200k prompt
// tokens). A tier applies while the prompt has at most its bound of tokens, so the tier is the
// one with the smallest bound >= the prompt. Tiers are compared by bound, not by array order,
// so a catalogue listing them out of order still picks the tightest one. A tier without a
// bound is the catch-all for prompts above every bound; with no catch-all, the tier with the
// largest bound is used (a price we know beats no price).
import type { PricingTier } from '../../core/types/pricing.js';
import { compare, multiply, parseDecimal, type Decimal } from './money.js';

export interface TierChoice {
  /** Position in the catalogue's `tiers` array. */
  index: number;
  tier: PricingTier;
}

const ONE_MILLION: Decimal = { coef: 1_000_000n, scale: 0 };

/** The tier's bound in tokens, exact (up_to_mtok 0.2 is 200000, not 200000.00000000003); null if unbounded.
 * up_to_tokens wins when both are given. */
export function tierBound(tier: PricingTier): Decimal | null {
  const value = tier.up_to_tokens ?? tier.up_to_mtok;
  if (value == null) return null;
  const bound = parseDecimal(value);
  if (bound.coef < 0n) throw new RangeError(`negative tier bound: ${String(value)}`);
  return tier.up_to_tokens != null ? bound : multiply(bound, ONE_MILLION);
}

/** Throws RangeError when a bound is not a non-negative number. */
export function selectTier(tiers: readonly PricingTier[], promptTokens: number): TierChoice | null {
  const prompt = parseDecimal(promptTokens);
  let fitting: { index: number; bound: Decimal } | null = null;
  let largest: { index: number; bound: Decimal } | null = null;
  let catchAll: number | null = null;
  for (const [index, tier] of tiers.entries()) {
    const bound = tierBound(tier);
    if (bound === null) {
      catchAll ??= index;
      continue;
    }
    if (compare(bound, prompt) >= 0 && (fitting === null || compare(bound, fitting.bound) < 0)) {
      fitting = { index, bound };
    }
    if (largest === null || compare(bound, largest.bound) > 0) largest = { index, bound };
  }
  const index = fitting?.index ?? catchAll ?? largest?.index;
  const tier = index === undefined ? undefined : tiers[index];
  return index === undefined || tier === undefined ? null : { index, tier };
}
