import { expect } from 'chai';
import { duration } from './headers.js';
import { msUntil, usedAt } from './sliding-window.js';

describe('sliding window', () => {
  it('weights the previous minute by the part of it still inside the last 60 s', () => {
    expect(usedAt({ prev: 10, curr: 2 }, 0)).to.equal(12);
    expect(usedAt({ prev: 10, curr: 2 }, 15_000)).to.equal(9.5);
    expect(usedAt({ prev: 10, curr: 2 }, 60_000)).to.equal(2);
  });

  it('tells how long until the count falls to a level, within this window or the next', () => {
    expect(msUntil({ prev: 10, curr: 2 }, 0, 12)).to.equal(0);
    // 10 x (60 - 15 - t) / 60 + 2 <= 6  ->  t >= 21 s
    expect(msUntil({ prev: 10, curr: 2 }, 15_000, 6)).to.equal(21_000);
    // Nothing before: already there.
    expect(msUntil({ prev: 0, curr: 3 }, 10_000, 3)).to.equal(0);
    // The current window alone is over: 50 s to its end, then 3 x (60 - e) / 60 <= 2 -> e >= 20 s.
    expect(msUntil({ prev: 0, curr: 3 }, 10_000, 2)).to.equal(70_000);
    // Empty again: the end of this window plus the whole next one.
    expect(msUntil({ prev: 4, curr: 3 }, 10_000, 0)).to.equal(110_000);
  });

  it('writes durations as OpenAI does', () => {
    expect([duration(250), duration(1000), duration(12_500), duration(60_500), duration(110_000)]).to.deep.equal(['250ms', '1s', '12.5s', '1m0.5s', '1m50s']);
  });
});
