import { expect } from 'chai';
import { bucketCount, bucketStarts } from './usage-buckets.js';

const HOUR = 3_600_000;

describe('usage buckets', () => {
  it('lists every UTC hour or day a window touches, the partial first one from its own start', () => {
    const from = Date.UTC(2026, 2, 2, 22, 30);
    const to = Date.UTC(2026, 2, 3, 1, 20);
    expect(bucketStarts('hour', from, to)).to.deep.equal([Date.UTC(2026, 2, 2, 22), Date.UTC(2026, 2, 2, 23), Date.UTC(2026, 2, 3, 0), Date.UTC(2026, 2, 3, 1)]);
    expect(bucketStarts('day', from, to)).to.deep.equal([Date.UTC(2026, 2, 2), Date.UTC(2026, 2, 3)]);
    expect(bucketStarts(null, from, to)).to.deep.equal([from]);
  });

  it('does not count the bucket that starts at the window\'s end', () => {
    const from = Date.UTC(2026, 2, 2);
    expect(bucketStarts('hour', from, from + 2 * HOUR)).to.deep.equal([from, from + HOUR]);
    expect(bucketCount('hour', from, from + 2 * HOUR)).to.equal(2);
    expect(bucketCount('hour', from, from + 2 * HOUR + 1)).to.equal(3);
    expect(bucketCount('day', from - 1, from + 1)).to.equal(2);
    expect(bucketCount('day', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))).to.equal(365);
  });
});
