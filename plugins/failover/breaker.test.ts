import { expect } from 'chai';
import { CircuitBreaker, MAX_TRACKED_TARGETS } from './breaker.js';

describe('failover: circuit breaker', () => {
  let now = 0;
  const breaker = (): CircuitBreaker => new CircuitBreaker({ failure_threshold: 2, cooldown_ms: 1000 }, () => now);
  /** A breaker whose target `x` just opened. */
  const opened = (): CircuitBreaker => {
    const b = breaker();
    b.failed('x', 'p');
    b.failed('x', 'p');
    return b;
  };
  beforeEach(() => {
    now = 0;
  });

  it('keeps at most MAX_TRACKED_TARGETS records: past it the oldest is forgotten', () => {
    const b = breaker();
    for (let i = 0; i <= MAX_TRACKED_TARGETS; i++) {
      b.failed(`m${i}`, 'p');
      b.failed(`m${i}`, 'p');
    }
    expect(b.openByProvider()).to.deep.equal(new Map([['p', MAX_TRACKED_TARGETS]]));
    expect([b.admit('m0'), b.admit('m1'), b.admit(`m${MAX_TRACKED_TARGETS}`)]).to.deep.equal([true, false, false]);
  });

  it('opens after the threshold of consecutive failures, for the cooldown', () => {
    const b = breaker();
    b.failed('x', 'p');
    expect(b.admit('x')).to.equal(true);
    b.failed('x', 'p');
    expect([b.admit('x'), b.waitMs(['x'])]).to.deep.equal([false, 1000]);
    now = 999;
    expect(b.admit('x')).to.equal(false);
  });

  it('lets one probe through after the cooldown; its success closes the breaker', () => {
    const b = opened();
    now = 1000;
    expect([b.admit('x'), b.admit('x')]).to.deep.equal([true, false]);
    b.succeeded('x');
    expect(b.admit('x')).to.equal(true);
  });

  it("reopens for another cooldown when the probe fails; a released probe lets the next call probe", () => {
    const b = opened();
    now = 1000;
    b.admit('x');
    b.failed('x', 'p');
    expect([b.admit('x'), b.waitMs(['x'])]).to.deep.equal([false, 1000]);
    now = 2000;
    b.admit('x');
    b.released('x');
    expect(b.admit('x')).to.equal(true);
  });

  it('counts open breakers by provider until a success closes them, the cooldown over or not', () => {
    const b = opened();
    b.failed('y', 'p');
    b.failed('z', 'q');
    b.failed('z', 'q');
    expect([...b.openByProvider()]).to.deep.equal([['p', 1], ['q', 1]]);
    now = 5000;
    expect([...b.openByProvider()]).to.deep.equal([['p', 1], ['q', 1]]);
    b.admit('x');
    b.succeeded('x');
    expect([...b.openByProvider()]).to.deep.equal([['q', 1]]);
  });

  it('a success resets the count of failures', () => {
    const b = breaker();
    b.failed('x', 'p');
    b.succeeded('x');
    b.failed('x', 'p');
    expect(b.admit('x')).to.equal(true);
  });

  it('tells each target\'s state: closed under the threshold, open with its end, half-open once the cooldown is over', () => {
    const b = opened();
    b.failed('q/model', 'q');
    b.failed('r/model', 'r');
    b.succeeded('r/model');
    expect(b.states()).to.deep.equal([
      { target: 'q/model', provider: 'q', state: 'closed', failures: 1, until: null },
      { target: 'x', provider: 'p', state: 'open', failures: 2, until: 1000 },
    ]);
    now = 1000;
    expect(b.states()[1]).to.deep.include({ state: 'half-open', failures: 2, until: null });
    b.admit('x');
    expect(b.states()[1]).to.deep.include({ state: 'half-open', failures: 2, until: null });
    b.failed('x', 'p');
    expect(b.states()[1]).to.deep.include({ state: 'open', failures: 3, until: 2000 });
  });
});
