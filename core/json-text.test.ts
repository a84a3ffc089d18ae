import { expect } from 'chai';
import { deepJsonText, jsonText } from './json-text.js';

/** `[[...[leaf]...]]`, `depth` arrays deep, built without recursion. */
function deepArray(depth: number, leaf: unknown): unknown[] {
  let value: unknown[] = [leaf];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe('jsonText', () => {
  const SHAPES: Array<[string, unknown]> = [
    ['primitives', [null, true, false, 0, -1.5, 1e21, 'a"b\\c\n\u2028', '']],
    ['empty containers', { a: {}, b: [], c: [[], {}] }],
    ['members JSON leaves out, and array holes it writes as null', { u: undefined, f: () => 1, s: Symbol('x'), keep: 1, list: [undefined, () => 1, Symbol('y'), 2] }],
    ['non-finite numbers', [NaN, Infinity, -Infinity]],
    ['toJSON, with the key it is given', { when: new Date(0), custom: { toJSON: (key: string) => `key=${key}` }, list: [{ toJSON: (key: string) => key }] }],
    ['an object whose first members are left out', { a: undefined, b: undefined, c: [1, { d: undefined, e: 'x' }] }],
    ['a toJSON at the top', { toJSON: () => ({ top: [1, 2] }) }],
    ['a top-level primitive', 'text'],
  ];
  for (const [what, value] of SHAPES) {
    it(`writes what JSON.stringify writes: ${what}`, () => {
      expect(deepJsonText(value)).to.equal(JSON.stringify(value));
    });
  }

  it('a value 100,000 levels deep, which JSON.stringify cannot write, comes out whole', () => {
    expect(() => JSON.stringify(deepArray(100_000, { a: 1 }))).to.throw(RangeError);
    expect(jsonText(deepArray(100_000, { a: 1 }))).to.equal(`${'['.repeat(100_000)}{"a":1}${']'.repeat(100_000)}`);
  });

  it('a cycle is a TypeError, as with JSON.stringify', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop['self'] = { back: loop };
    expect(() => jsonText(loop)).to.throw(TypeError, /circular/);
    expect(() => deepJsonText(loop)).to.throw(TypeError, /circular/);
  });

  it('the same object twice, side by side, is no cycle', () => {
    const shared = { x: 1 };
    expect(deepJsonText({ a: shared, b: [shared, shared] })).to.equal('{"a":{"x":1},"b":[{"x":1},{"x":1}]}');
  });
});
