import { expect } from 'chai';
import type { Pricing } from '../../core/types/pricing.js';
import { emptyUsage, type Usage } from '../../core/types/usage.js';
import { calculateCost, type Cost, type CostOptions } from './calculate.js';
import { formatPicos, formatUsd } from './money.js';
import { utcWeekMinute } from './time-window.js';
import { pickTier, tierTable } from './tier.js';

// The per-call fast paths (whole picodollars in Numbers, precompiled plans, clock arithmetic on
// ms) against what they stand in for: BigInt Decimals, per-call parsing, Date.

const usage = (counts: Partial<Usage>): Usage => ({ ...emptyUsage(), ...counts });
const NOON_MONDAY = new Date('2025-01-06T12:00:00Z');
const MINI: Pricing = { input_per_mtok: 0.15, output_per_mtok: 0.6, cached_input_per_mtok: 0.075 };

/** Deterministic, so a failure names a value that can be replayed. */
function* numbers(count: number, below: number): Generator<number> {
  let state = 0x2545f491;
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const high = state;
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    yield Math.floor(((high * 2 ** 32 + state) / 2 ** 64) * below);
  }
}

const price = (counts: Partial<Usage>, pricing: Pricing, opts: Partial<CostOptions> = {}): Cost => calculateCost(usage(counts), pricing, { at: NOON_MONDAY, ...opts });

describe('pricing/plan: fast paths give the exact results', () => {
  describe('formatPicos is formatUsd without BigInt', () => {
    const edges = [0, 1, 9, 10, 100, 75_000, 6_750_000, 999_999_999_999, 1_000_000_000_000, 1_000_000_000_001, 1_500_000_000_000, 12_345_678_900_000, Number.MAX_SAFE_INTEGER];
    for (const picos of edges) {
      it(`${picos}`, () => expect(formatPicos(picos)).to.equal(formatUsd(BigInt(picos))));
    }
    it('random values up to 2^53', () => {
      for (const limit of [1e6, 1e12, 1e15, Number.MAX_SAFE_INTEGER]) {
        for (const picos of numbers(2000, limit)) expect(formatPicos(picos), String(picos)).to.equal(formatUsd(BigInt(picos)));
      }
    });
  });

  describe('utcWeekMinute is what Date says', () => {
    const fromDate = (ms: number): number => {
      const at = new Date(ms);
      return at.getUTCDay() * 1440 + at.getUTCHours() * 60 + at.getUTCMinutes();
    };
    const edges = [0, -1, -0.5, 0.5, 59_999, 60_000, 86_399_999, 86_400_000, -86_400_000, -86_400_001, 8.64e15, -8.64e15, 8.64e15 - 0.5, Date.parse('2025-01-04T00:29:59.999Z')];
    for (const ms of edges) {
      it(`${ms}`, () => expect(utcWeekMinute(ms)).to.equal(fromDate(ms)));
    }
    it('random moments across the whole Date range', () => {
      for (const offset of numbers(5000, 2 * 8.64e15)) {
        const ms = offset - 8.64e15;
        expect(utcWeekMinute(ms), String(ms)).to.equal(fromDate(ms));
      }
    });
    for (const ms of [Number.NaN, 8.64e15 + 1, -8.64e15 - 1, Number.POSITIVE_INFINITY]) {
      it(`rejects ${ms}, an invalid Date`, () => expect(() => utcWeekMinute(ms)).to.throw(RangeError, 'invalid date for time-window pricing'));
    }
  });

  describe('pickTier compares whole prompts with exact bounds', () => {
    const table = tierTable([{ up_to_tokens: 1000.5 }, { up_to_tokens: 999.2 }, { up_to_mtok: 0.0010005 }, {}]);
    const cases: [number, number][] = [
      [999, 1], // 999 <= 999.2
      [1000, 0], // 1000 > 999.2; 1000.5 fits, the first of the two equal bounds
      [1001, 3], // above every bound: the catch-all
    ];
    for (const [prompt, index] of cases) {
      it(`${prompt} tokens -> tier ${index}`, () => expect(pickTier(table, prompt)).to.equal(index));
    }
    it('bounds and prompts past 2^53', () => {
      const huge = tierTable([{ up_to_tokens: 1e20 }, { up_to_tokens: 2 ** 53 }]);
      expect(pickTier(huge, Number.MAX_SAFE_INTEGER)).to.equal(1);
      // A sum of counts can pass 2^53: compared exactly, as the decimal it prints as.
      expect(pickTier(huge, Number.MAX_SAFE_INTEGER * 3)).to.equal(0);
      expect(pickTier(huge, 1e21)).to.equal(0);
    });
  });

  describe('calculateCost falls back to exact BigInt arithmetic', () => {
    it('one line past 2^53 picodollars', () => {
      const cost = price({ input_tokens: Number.MAX_SAFE_INTEGER }, MINI);
      // 9007199254740991 x 0.15 / 1e6 = 1351079888.21114865
      expect(cost.total_usd).to.equal('1351079888.21114865');
      expect(cost.pico_usd).to.equal(1_351_079_888_211_148_650_000n);
      expect(cost.lines).to.deep.equal([{ item: 'input', quantity: Number.MAX_SAFE_INTEGER, rate_usd: '0.15', amount_usd: '1351079888.21114865' }]);
    });

    it('lines that fit but a sum that does not', () => {
      // 6e10 x 150000 picos = 9e15 fits; adding 1e9 x 600000 = 6e14 passes 2^53.
      const cost = price({ input_tokens: 60_000_000_000, output_tokens: 1_000_000_000 }, MINI);
      expect(cost.total_usd).to.equal('9600');
      expect(cost.pico_usd).to.equal(9_600_000_000_000_000n);
      expect(cost.lines.map((l) => l.amount_usd)).to.deep.equal(['9000', '600']);
    });

    it('whole and sub-picodollar lines are summed exactly, then rounded once', () => {
      const pricing: Pricing = { input_per_mtok: 0.15, output_per_mtok: 1e-7 };
      // 150000 picos + 3 x 0.1 picos = 150000.3 -> 150000
      expect(price({ input_tokens: 1, output_tokens: 3 }, pricing).pico_usd).to.equal(150_000n);
      // 150000 + 0.5 -> 150001, half up
      const cost = price({ input_tokens: 1, output_tokens: 5 }, pricing);
      expect(cost.pico_usd).to.equal(150_001n);
      expect(cost.total_usd).to.equal('0.000000150001');
      expect(cost.lines.map((l) => l.amount_usd)).to.deep.equal(['0.00000015', '0.0000000000005']);
    });

    it('a per-unit line past 2^53 picodollars', () => {
      const cost = price({}, { per_image: 0.2 }, { units: { images_out: 1e9 } });
      expect(cost.total_usd).to.equal('200000000');
      expect(cost.lines).to.deep.equal([{ item: 'image_out', quantity: 1e9, rate_usd: '0.2', amount_usd: '200000000' }]);
    });
  });

  describe('calculateCost with a plan reused across calls', () => {
    const LAYERED: Pricing = {
      input_per_mtok: 3,
      output_per_mtok: 6,
      batch_input_per_mtok: 0.25,
      tiers: [{ up_to_tokens: 100, input_per_mtok: 1, output_per_mtok: 1 }, { input_per_mtok: 2, output_per_mtok: 2 }],
      time_windows: [{ label: 'night', utc_ranges: [{ start: '00:00', end: '06:00' }], pricing: { input_per_mtok: 0.5 } }],
    };
    const calls: [Partial<Usage>, Partial<CostOptions>][] = [
      [{ input_tokens: 50, output_tokens: 10 }, {}],
      [{ input_tokens: 500, output_tokens: 10 }, { at: new Date('2025-01-06T03:00:00Z') }],
      [{ input_tokens: 500, output_tokens: 10 }, { at: Date.parse('2025-01-06T03:00:00Z'), batch: true }],
      [{ input_tokens: 50, output_tokens: 10 }, { batch: true }],
      [{ input_tokens: 500, output_tokens: 10 }, {}],
    ];
    it('gives what a fresh pricing object gives, in any order', () => {
      for (const order of [calls, [...calls].reverse()]) {
        for (const [counts, opts] of order) {
          expect(price(counts, LAYERED, opts)).to.deep.equal(price(counts, structuredClone(LAYERED), opts));
        }
      }
    });
    it('takes the moment as ms since the epoch too', () => {
      for (const iso of ['2025-01-06T03:00:00Z', '2025-01-06T06:00:00Z', '1969-12-31T23:59:59.999Z']) {
        expect(price({ input_tokens: 10 }, LAYERED, { at: Date.parse(iso) })).to.deep.equal(price({ input_tokens: 10 }, LAYERED, { at: new Date(iso) }));
      }
      expect(price({ input_tokens: 10 }, LAYERED, { at: Number.NaN }).unknown_reason).to.equal('invalid time_windows: invalid date for time-window pricing');
    });
  });

  it('calculateCost with pricing that is not an object (unchecked config)', () => {
    for (const pricing of ['free', 0, true]) {
      expect(price({ input_tokens: 10 }, pricing as unknown as Pricing).unknown_reason).to.equal('pricing has no rates');
    }
  });

  describe('calculateCost reports problems in rule order', () => {
    const BAD_TIER: Pricing = { input_per_mtok: 1, tiers: [{ up_to_tokens: 100 }, { input_per_mtok: -2 }] };
    it('a bad rate in a tier the call does not use', () => {
      expect(price({ input_tokens: 10 }, BAD_TIER).total_usd).to.equal('0.00001');
    });
    it('a bad rate in the tier the call uses', () => {
      expect(price({ input_tokens: 1000 }, BAD_TIER).unknown_reason).to.equal('invalid tiers[1].input_per_mtok: negative rate: -2');
    });
    it('a bad usage count before a bad rate, with the notes made before it', () => {
      const cost = price({ input_tokens: -5, output_tokens: 1.5 }, { input_per_mtok: -1 });
      expect(cost.unknown_reason).to.equal('invalid usage output_tokens: 1.5');
      expect(cost.notes).to.deep.equal(['usage input_tokens was -5; counted as 0']);
    });
    it('a bad rate after the usage notes', () => {
      const cost = price({ input_tokens: -5 }, { input_per_mtok: -1 });
      expect(cost.unknown_reason).to.equal('invalid input_per_mtok: negative rate: -1');
      expect(cost.notes).to.deep.equal(['usage input_tokens was -5; counted as 0']);
    });
    it('a bad per-unit rate after the notes of the units before it', () => {
      const cost = price({}, { per_image: 0.2, per_page: -1 }, { units: { images_in: 2, images_out: 1 } });
      expect(cost.unknown_reason).to.equal('invalid per_page: negative rate: -1');
      expect(cost.notes).to.deep.equal(['units.images_in 2 has no input_per_image rate; assumed priced as tokens']);
    });
  });
});
