import { expect } from 'chai';
import { periodBounds } from './period.js';

const at = (iso: string): number => Date.parse(iso);

describe('budget periods (UTC)', () => {
  const now = at('2026-11-26T19:30:00Z'); // a Thursday

  it('start at midnight, on Monday, on the 1st, or never', () => {
    expect(periodBounds('daily', now)).to.deep.equal({ start: at('2026-11-26T00:00:00Z'), end: at('2026-11-27T00:00:00Z') });
    expect(periodBounds('weekly', now)).to.deep.equal({ start: at('2026-11-23T00:00:00Z'), end: at('2026-11-30T00:00:00Z') });
    expect(periodBounds('monthly', now)).to.deep.equal({ start: at('2026-11-01T00:00:00Z'), end: at('2026-12-01T00:00:00Z') });
    expect(periodBounds('total', now)).to.deep.equal({ start: 0, end: null });
  });

  it('a Monday starts its own week, a Sunday belongs to the one before, December ends at the new year', () => {
    expect(periodBounds('weekly', at('2026-11-23T00:00:00Z')).start).to.equal(at('2026-11-23T00:00:00Z'));
    expect(periodBounds('weekly', at('2026-11-29T23:59:59Z')).start).to.equal(at('2026-11-23T00:00:00Z'));
    expect(periodBounds('monthly', at('2026-12-31T12:00:00Z')).end).to.equal(at('2027-01-01T00:00:00Z'));
  });
});
