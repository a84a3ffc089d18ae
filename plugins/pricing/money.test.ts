import { expect } from 'chai';
import {
  add,
  compare,
  formatDecimal,
  formatUsd,
  multiply,
  parseDecimal,
  parseRate,
  shiftDown,
  toPicos,
  type Decimal,
} from './money.js';

const d = (coef: bigint, scale: number): Decimal => ({ coef, scale });

describe('pricing/money', () => {
  describe('parseRate', () => {
    const cases: [number | string, Decimal, string][] = [
      [3, d(3n, 0), '3'],
      [0, d(0n, 0), '0'],
      [-0, d(0n, 0), '0'],
      [0.075, d(75n, 3), '0.075'],
      [1.25, d(125n, 2), '1.25'],
      [1e-7, d(1n, 7), '0.0000001'],
      [1.5e-7, d(15n, 8), '0.00000015'],
      [1.23e-18, d(123n, 20), '0.00000000000000000123'],
      [1e21, d(1_000_000_000_000_000_000_000n, 0), '1000000000000000000000'],
      [2.5e3, d(2500n, 0), '2500'],
      [0.1 + 0.2, d(30000000000000004n, 17), '0.30000000000000004'],
      ['0.50', d(5n, 1), '0.5'],
      [' 12.3456789 ', d(123456789n, 7), '12.3456789'],
      ['.5', d(5n, 1), '0.5'],
      ['5.', d(5n, 0), '5'],
      ['1E-3', d(1n, 3), '0.001'],
      ['+2', d(2n, 0), '2'],
    ];
    for (const [input, decimal, text] of cases) {
      it(`${JSON.stringify(input)} -> ${text}`, () => {
        const parsed = parseRate(input);
        expect(parsed).to.deep.equal(decimal);
        expect(formatDecimal(parsed)).to.equal(text);
      });
    }

    const bad: (number | string)[] = [-1, -1e-7, '-0.5', Number.NaN, Number.POSITIVE_INFINITY, '', 'abc', '1e', '.', '1.2.3', '1e99999'];
    for (const input of bad) {
      it(`rejects ${String(input)}`, () => {
        expect(() => parseRate(input)).to.throw(RangeError);
      });
    }
  });

  it('parseDecimal accepts negatives (provider credits, comparisons)', () => {
    expect(formatDecimal(parseDecimal(-0.25))).to.equal('-0.25');
    expect(formatDecimal(parseDecimal('-1e-3'))).to.equal('-0.001');
  });

  describe('arithmetic is exact', () => {
    it('0.1 + 0.2 = 0.3', () => {
      expect(formatDecimal(add(parseRate(0.1), parseRate(0.2)))).to.equal('0.3');
    });
    it('0.075 x 3 = 0.225', () => {
      expect(formatDecimal(multiply(parseRate(0.075), parseRate(3)))).to.equal('0.225');
    });
    it('1.1 x 1.1 = 1.21', () => {
      expect(formatDecimal(multiply(parseRate(1.1), parseRate(1.1)))).to.equal('1.21');
    });
    it('shiftDown turns per-MTok into per-token', () => {
      expect(formatDecimal(shiftDown(parseRate(0.075), 6))).to.equal('0.000000075');
      expect(formatDecimal(shiftDown(parseRate(2500000), 6))).to.equal('2.5');
    });
    it('compare', () => {
      expect(compare(parseRate(0.2), parseRate('0.20'))).to.equal(0);
      expect(compare(parseRate(200000), parseRate(200001))).to.equal(-1);
      expect(compare(parseRate(1e-7), parseRate(0))).to.equal(1);
    });
  });

  describe('toPicos rounds once, half away from zero', () => {
    const cases: [Decimal, bigint][] = [
      [d(1n, 12), 1n],
      [d(1n, 13), 0n], // 0.1 pico
      [d(4n, 13), 0n],
      [d(5n, 13), 1n], // 0.5 pico: half-up
      [d(15n, 13), 2n], // 1.5
      [d(25n, 13), 3n], // 2.5: half-up gives 3, banker's would give 2
      [d(2499999n, 18), 2n],
      [d(-25n, 13), -3n],
      [d(3n, 0), 3_000_000_000_000n],
      [d(75n, 9), 75_000n], // $0.000000075
      [parseRate(0.1 + 0.2), 300_000_000_000n], // float garbage below a picodollar disappears
    ];
    for (const [value, picos] of cases) {
      it(`${formatDecimal(value)} USD -> ${picos} picos`, () => {
        expect(toPicos(value)).to.equal(picos);
      });
    }
  });

  describe('formatUsd', () => {
    const cases: [bigint, string][] = [
      [0n, '0'],
      [1n, '0.000000000001'],
      [2_500_000_000n, '0.0025'],
      [12_345_678_900_000n, '12.3456789'],
      [1_000_000_000_000n, '1'],
      [15_000_000_000_000_000n, '15000'],
      [-75_000n, '-0.000000075'],
    ];
    for (const [picos, text] of cases) {
      it(`${picos} -> ${text}`, () => {
        expect(formatUsd(picos)).to.equal(text);
      });
    }
  });
});
