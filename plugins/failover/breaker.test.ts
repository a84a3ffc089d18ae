import { expect } from 'chai';
import { CircuitBreaker } from './breaker.js';

describe('failover: circuit breaker', () => {
  let now = 0;
  const breaker = (): CircuitBreaker => new CircuitBreaker({ failure_threshold: 2, cooldown_ms: 1000 }, () => now);
  /** A breaker whose target `x` just opened. */
  const opened = (): CircuitBreaker => {
    const b = breaker();
    b.failed('x');
    b.failed('x');
    return b;
  };
  beforeEach(() => {
    now = 0;
  });

  it('opens after the threshold of consecutive failures, for the cooldown', () => {
    const b = breaker();
    b.failed('x');
    expect(b.admit('x')).to.equal(true);
    b.failed('x');
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
    b.failed('x');
    expect([b.admit('x'), b.waitMs(['x'])]).to.deep.equal([false, 1000]);
    now = 2000;
    b.admit('x');
    b.released('x');
    expect(b.admit('x')).to.equal(true);
  });

  it('a success resets the count of failures', () => {
    const b = breaker();
    b.failed('x');
    b.succeeded('x');
    b.failed('x');
    expect(b.admit('x')).to.equal(true);
  });
});
