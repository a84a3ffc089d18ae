// Where a budget's current period began: calendar periods in UTC, weeks from Monday.
import { expect } from 'chai';
import { periodStart } from './spend.js';

describe('periodStart', () => {
  const created = Date.UTC(2025, 11, 30, 8);
  // Sunday 2026-03-01, 23:59:59.999 UTC.
  const sunday = Date.UTC(2026, 2, 1, 23, 59, 59, 999);

  it('starts a day at UTC midnight, a week on Monday, a month on the 1st, total at creation', () => {
    expect(new Date(periodStart('daily', sunday, created)).toISOString()).to.equal('2026-03-01T00:00:00.000Z');
    expect(new Date(periodStart('weekly', sunday, created)).toISOString()).to.equal('2026-02-23T00:00:00.000Z');
    expect(new Date(periodStart('monthly', sunday, created)).toISOString()).to.equal('2026-03-01T00:00:00.000Z');
    expect(periodStart('total', sunday, created)).to.equal(created);
  });

  it('counts a Monday as the first day of its own week', () => {
    const monday = Date.UTC(2026, 2, 2, 0, 0, 0, 1);
    expect(new Date(periodStart('weekly', monday, created)).toISOString()).to.equal('2026-03-02T00:00:00.000Z');
  });
});
