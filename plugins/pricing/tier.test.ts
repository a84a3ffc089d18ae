import { expect } from 'chai';
import type { PricingTier } from '../../core/types/pricing.js';
import { formatDecimal } from './money.js';
import { selectTier, tierBound } from './tier.js';

describe('pricing/tier', () => {
  const gemini: PricingTier[] = [{ up_to_tokens: 200_000, input_per_mtok: 1.25 }, { input_per_mtok: 2.5 }];

  const cases: [string, PricingTier[], number, number | null][] = [
    ['0 tokens: first tier', gemini, 0, 0],
    ['at the bound (inclusive)', gemini, 200_000, 0],
    ['one above the bound: catch-all', gemini, 200_001, 1],
    ['up_to_mtok 0.2 is exactly 200000', [{ up_to_mtok: 0.2 }, {}], 200_000, 0],
    ['up_to_mtok 0.2, one above', [{ up_to_mtok: 0.2 }, {}], 200_001, 1],
    // In floats 0.000249 * 1e6 is 248.99999999999997, which would push a 249-token prompt up a tier.
    ['up_to_mtok 0.000249 is exactly 249 tokens', [{ up_to_mtok: 0.000249 }, {}], 249, 0],
    ['above every bound, no catch-all: largest bound', [{ up_to_tokens: 1000 }, { up_to_tokens: 2000 }], 5000, 1],
    ['out of order: tightest bound wins', [{ up_to_tokens: 2000 }, { up_to_tokens: 1000 }], 500, 1],
    ['out of order: between bounds', [{ up_to_tokens: 2000 }, { up_to_tokens: 1000 }], 1500, 0],
    ['catch-all listed first is still the catch-all', [{}, { up_to_tokens: 1000 }], 10, 1],
    ['catch-all listed first, above the bound', [{}, { up_to_tokens: 1000 }], 1001, 0],
    ['largest bound listed first, no catch-all', [{ up_to_tokens: 2000 }, { up_to_tokens: 1000 }], 9999, 0],
    ['up_to_tokens wins over up_to_mtok', [{ up_to_tokens: 10, up_to_mtok: 1 }, {}], 11, 1],
    ['no tiers', [], 10, null],
  ];
  for (const [name, tiers, prompt, index] of cases) {
    it(name, () => {
      expect(selectTier(tiers, prompt)?.index ?? null).to.equal(index);
    });
  }

  it('tierBound is exact', () => {
    expect(formatDecimal(tierBound({ up_to_mtok: 0.000249 }) ?? { coef: -1n, scale: 0 })).to.equal('249');
    expect(tierBound({})).to.equal(null);
  });

  it('a negative bound is rejected', () => {
    expect(() => selectTier([{ up_to_tokens: -1 }], 0)).to.throw(RangeError);
  });
});
