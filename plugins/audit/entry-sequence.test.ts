import { expect } from 'chai';
import { EntrySequence } from './entry-sequence.js';

describe('audit entry sequence', () => {
  it('hands out distinct positions within a batch whose rows the table does not hold yet', () => {
    // The table knows ms 100 up to n = 4; nothing of this batch is in it yet.
    const stored = new Map([[100, 4]]);
    const sequence = new EntrySequence({ ts: 100, n: 4 }, (ts) => stored.get(ts) ?? null);
    const positions = [100, 101, 101, 102, 101, 100, 99, 102, 99].map((ts) => `${ts}:${sequence.next(ts)}`);
    expect(positions).to.deep.equal(['100:5', '101:0', '101:1', '102:0', '101:2', '100:6', '99:0', '102:1', '99:1']);
    // Once the batch is over (committed or rolled back), the table is asked again.
    sequence.endBatch();
    stored.set(101, 2);
    expect(sequence.next(101)).to.equal(3);
  });
});
