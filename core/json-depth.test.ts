import { expect } from 'chai';
import { nestsDeeperThan } from './json-depth.js';

describe('nestsDeeperThan', () => {
  it('counts the top-level object or array as level 1, and leaves as no level', () => {
    expect(nestsDeeperThan('text', 0)).to.equal(false);
    expect(nestsDeeperThan({}, 0)).to.equal(true);
    expect(nestsDeeperThan({}, 1)).to.equal(false);
    expect(nestsDeeperThan({ a: [1, 'x', null] }, 2)).to.equal(false);
    expect(nestsDeeperThan({ a: [1, 'x', null] }, 1)).to.equal(true);
  });

  it('finds the one deep member among shallow ones, in arrays and in objects', () => {
    const value = JSON.parse('{"a":1,"b":[{"c":[]},2],"d":{"e":{"f":{"g":[[]]}}}}') as unknown;
    expect(nestsDeeperThan(value, 6)).to.equal(false);
    expect(nestsDeeperThan(value, 5)).to.equal(true);
  });

  it('answers for a value 100,000 levels deep without overflowing', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(nestsDeeperThan(deep, 64)).to.equal(true);
  });
});
