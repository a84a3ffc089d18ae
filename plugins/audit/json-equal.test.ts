import { expect } from 'chai';
import { jsonEqual } from './json-equal.js';

describe('jsonEqual', () => {
  it('is true for the same JSON data, member order aside', () => {
    expect(jsonEqual({ a: 1, b: [1, 'x', null, { c: true }] }, { b: [1, 'x', null, { c: true }], a: 1 })).to.equal(true);
    expect(jsonEqual(null, null)).to.equal(true);
    expect(jsonEqual(0, 0)).to.equal(true);
  });

  it('is false for any difference, and where JSON would hide one', () => {
    expect(jsonEqual({ a: 1 }, { a: 2 })).to.equal(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).to.equal(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1 })).to.equal(false);
    expect(jsonEqual([1, 2], [1, 2, 3])).to.equal(false);
    expect(jsonEqual([1], { 0: 1 })).to.equal(false);
    expect(jsonEqual('1', 1)).to.equal(false);
    expect(jsonEqual(undefined, undefined)).to.equal(false);
    expect(jsonEqual({ a: undefined }, { a: undefined })).to.equal(false);
    expect(jsonEqual(Infinity, Infinity)).to.equal(false);
    expect(jsonEqual(new Date(0), new Date(0))).to.equal(false);
    const withToJson = { toJSON: () => 1 };
    expect(jsonEqual({ a: withToJson }, { a: withToJson })).to.equal(true);
    expect(jsonEqual({ a: { toJSON: () => 1 } }, { a: { toJSON: () => 1 } })).to.equal(false);
    const listWithToJson = Object.assign([1], { toJSON: () => 'x' });
    expect(jsonEqual(listWithToJson, [1])).to.equal(false);
    // A member JSON does not write (not enumerable) is not one.
    const hidden = Object.defineProperty({ j: 2 }, 'k', { value: 1, enumerable: false });
    expect(jsonEqual({ k: 1 }, hidden)).to.equal(false);
  });
});
