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

/** Tiers ready for choosing by prompt size, built once per pricing (see plan.ts). */
export interface TierTable {
  /** Bounded tiers by exact bound, ties in catalogue order: the first that fits is the tightest. */
  readonly ascending: readonly BoundedTier[];
  /** The catch-all, else the largest bound; -1 when there are no tiers. */
  readonly fallback: number;
}

interface BoundedTier {
  readonly index: number;
  readonly bound: Decimal;
  /** The bound rounded down to whole tokens, or Infinity past 2^53: for a whole prompt,
   * prompt <= bound exactly when prompt <= tokens, so no Decimal is needed per call. */
  readonly tokens: number;
}

/** Throws RangeError when a bound is not a non-negative number. */
export function tierTable(tiers: readonly PricingTier[]): TierTable {
  const ascending: BoundedTier[] = [];
  let largest: BoundedTier | null = null;
  let catchAll: number | null = null;
  for (const [index, tier] of tiers.entries()) {
    const bound = tierBound(tier);
    if (bound === null) {
      catchAll ??= index;
      continue;
    }
    const entry = { index, bound, tokens: wholeTokens(bound) };
    ascending.push(entry);
    if (largest === null || compare(bound, largest.bound) > 0) largest = entry;
  }
  ascending.sort((a, b) => compare(a.bound, b.bound) || a.index - b.index);
  return { ascending, fallback: catchAll ?? largest?.index ?? -1 };
}

/** The index of the tier that prices a prompt of this many tokens; -1 when there are no tiers. */
export function pickTier(table: TierTable, promptTokens: number): number {
  if (Number.isSafeInteger(promptTokens)) {
    for (const tier of table.ascending) if (tier.tokens >= promptTokens) return tier.index;
    return table.fallback;
  }
  // A sum of several token counts can pass 2^53; compare it as the decimal it prints as.
  const prompt = parseDecimal(promptTokens);
  for (const tier of table.ascending) if (compare(tier.bound, prompt) >= 0) return tier.index;
  return table.fallback;
}

/** Throws RangeError when a bound is not a non-negative number. */
export function selectTier(tiers: readonly PricingTier[], promptTokens: number): TierChoice | null {
  const index = pickTier(tierTable(tiers), promptTokens);
  const tier = tiers[index];
  return tier === undefined ? null : { index, tier };
}

function wholeTokens(bound: Decimal): number {
  const whole = bound.coef / 10n ** BigInt(bound.scale);
  return whole <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(whole) : Number.POSITIVE_INFINITY;
}
