import { expect } from 'chai';
import type { TimeWindow, UtcRange } from '../../core/types/pricing.js';
import { findTimeWindow, inUtcRange, parseClock, parseRange } from './time-window.js';

// 2025-01-02 is a Thursday, 01-03 Friday, 01-04 Saturday, 01-05 Sunday, 01-06 Monday.
const at = (iso: string): Date => new Date(`${iso}Z`);

describe('pricing/time-window', () => {
  describe('parseClock', () => {
    const good: [string, number][] = [
      ['00:00', 0],
      ['00:30', 30],
      ['16:30', 990],
      ['23:59', 1439],
      ['24:00', 1440],
    ];
    for (const [text, minutes] of good) {
      it(`${text} -> ${minutes}`, () => expect(parseClock(text)).to.equal(minutes));
    }
    for (const text of ['9:00', '24:01', '25:00', '12:60', '1230', '', '12:3', 'ab:cd']) {
      it(`rejects ${JSON.stringify(text)}`, () => expect(() => parseClock(text)).to.throw(RangeError));
    }
  });

  describe('DeepSeek off-peak, 16:30-00:30 UTC every day', () => {
    const offPeak: UtcRange = { start: '16:30', end: '00:30' };
    const cases: [string, boolean][] = [
      ['2025-01-03T16:29:59', false],
      ['2025-01-03T16:30:00', true], // start is inclusive
      ['2025-01-03T20:00:00', true],
      ['2025-01-03T23:59:59', true],
      ['2025-01-04T00:00:00', true],
      ['2025-01-04T00:29:00', true],
      ['2025-01-04T00:29:59.999', true],
      ['2025-01-04T00:30:00', false], // end is exclusive
      ['2025-01-04T12:00:00', false],
      ['2025-01-05T00:15:00', true], // Sunday morning: continuation of Saturday evening
    ];
    for (const [iso, inside] of cases) {
      it(`${iso} is ${inside ? 'off-peak' : 'peak'}`, () => expect(inUtcRange(at(iso), offPeak)).to.equal(inside));
    }
  });

  describe('a wrapping range belongs to the day it starts: fri 22:00-02:00', () => {
    const range: UtcRange = { days: ['fri'], start: '22:00', end: '02:00' };
    const cases: [string, boolean][] = [
      ['2025-01-03T21:59:00', false], // Fri, before start
      ['2025-01-03T22:00:00', true], // Fri 22:00
      ['2025-01-03T23:30:00', true],
      ['2025-01-04T01:59:00', true], // Sat early morning
      ['2025-01-04T02:00:00', false], // Sat 02:00, exclusive end
      ['2025-01-04T22:30:00', false], // Sat evening: Saturday is not listed
      ['2025-01-03T01:00:00', false], // Fri early morning belongs to Thursday's range
      ['2025-01-02T23:00:00', false], // Thu evening
    ];
    for (const [iso, inside] of cases) {
      it(`${iso} -> ${inside}`, () => expect(inUtcRange(at(iso), range)).to.equal(inside));
    }
  });

  describe('non-wrapping range with days: mon-fri 09:00-17:00', () => {
    const range: UtcRange = { days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' };
    const cases: [string, boolean][] = [
      ['2025-01-06T09:00:00', true],
      ['2025-01-06T16:59:59', true],
      ['2025-01-06T17:00:00', false],
      ['2025-01-06T08:59:59', false],
      ['2025-01-04T12:00:00', false], // Saturday
      ['2025-01-05T12:00:00', false], // Sunday
    ];
    for (const [iso, inside] of cases) {
      it(`${iso} -> ${inside}`, () => expect(inUtcRange(at(iso), range)).to.equal(inside));
    }
  });

  it('start == end spans 24 hours from start', () => {
    const range: UtcRange = { days: ['sat'], start: '06:00', end: '06:00' };
    expect(inUtcRange(at('2025-01-04T06:00:00'), range)).to.equal(true);
    expect(inUtcRange(at('2025-01-05T05:59:00'), range)).to.equal(true);
    expect(inUtcRange(at('2025-01-05T06:00:00'), range)).to.equal(false);
    expect(inUtcRange(at('2025-01-04T05:59:00'), range)).to.equal(false);
  });

  it('"24:00" ends at midnight', () => {
    const range: UtcRange = { start: '22:00', end: '24:00' };
    expect(inUtcRange(at('2025-01-04T23:59:59'), range)).to.equal(true);
    expect(inUtcRange(at('2025-01-05T00:00:00'), range)).to.equal(false);
  });

  it('days are lower-case three-letter names', () => {
    expect(() => parseRange({ days: ['Mon'], start: '00:00', end: '01:00' })).to.throw(RangeError, /invalid day/);
    expect(() => parseRange({ days: ['monday'], start: '00:00', end: '01:00' })).to.throw(RangeError);
    expect(() => parseRange({ start: '24:00', end: '01:00' })).to.throw(RangeError);
  });

  describe('findTimeWindow', () => {
    const windows: TimeWindow[] = [
      { label: 'weekend', utc_ranges: [{ days: ['sat', 'sun'], start: '00:00', end: '00:00' }], pricing: { input_per_mtok: 1 } },
      { utc_ranges: [{ start: '20:00', end: '22:00' }, { start: '02:00', end: '04:00' }], pricing: { input_per_mtok: 2 } },
      { label: 'night', utc_ranges: [{ start: '21:00', end: '06:00' }], pricing: { input_per_mtok: 3 } },
    ];
    it('first matching window wins', () => {
      const choice = findTimeWindow(windows, at('2025-01-04T21:00:00')); // Saturday
      expect(choice?.index).to.equal(0);
      expect(choice?.label).to.equal('weekend');
    });
    it('any of a window’s ranges matches; unlabelled windows get "window <index>"', () => {
      expect(findTimeWindow(windows, at('2025-01-06T03:00:00'))?.label).to.equal('window 1');
      expect(findTimeWindow(windows, at('2025-01-06T21:30:00'))?.label).to.equal('window 1');
    });
    it('later windows match when earlier do not', () => {
      expect(findTimeWindow(windows, at('2025-01-06T23:00:00'))?.label).to.equal('night');
    });
    it('null outside every window', () => {
      expect(findTimeWindow(windows, at('2025-01-06T12:00:00'))).to.equal(null);
    });
    it('a malformed later window fails even when an earlier one matches', () => {
      const bad: TimeWindow[] = [windows[0] as TimeWindow, { utc_ranges: [{ start: '7:00', end: '08:00' }], pricing: {} }];
      expect(() => findTimeWindow(bad, at('2025-01-04T12:00:00'))).to.throw(RangeError);
    });
    it('an invalid date is rejected', () => {
      expect(() => findTimeWindow(windows, new Date('nope'))).to.throw(RangeError);
    });
  });
});
