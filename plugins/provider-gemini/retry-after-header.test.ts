import { expect } from 'chai';
import { retryAfterHeaderSeconds } from './retry-after-header.js';

describe('retryAfterHeaderSeconds', () => {
  it('reads delay-seconds and HTTP dates, rounding up', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(retryAfterHeaderSeconds('7', now)).to.equal(7);
    expect(retryAfterHeaderSeconds('1.2', now)).to.equal(2);
    expect(retryAfterHeaderSeconds(['30'], now)).to.equal(30);
    expect(retryAfterHeaderSeconds('Sun, 01 Jun 2025 12:00:45 GMT', now)).to.equal(45);
    expect(retryAfterHeaderSeconds('Sun, 01 Jun 2025 11:00:00 GMT', now)).to.equal(0);
  });

  it('gives null for what it cannot read', () => {
    for (const value of [undefined, '', 'soon', '-3']) expect(retryAfterHeaderSeconds(value), String(value)).to.equal(null);
  });
});
