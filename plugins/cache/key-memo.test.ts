// The memo of cache keys by request bytes: a key is computed once for the same bytes in the same
// context, again for other bytes or another context, and the oldest memo goes when it is full.
import { expect } from 'chai';
import { KeyMemo } from './key-memo.js';

describe('cache: keys remembered by the request\'s bytes', () => {
  const body = (text: string): Buffer => Buffer.from(text);

  it('computes the key once for the same bytes in the same context', () => {
    const memo = new KeyMemo(10);
    let computed = 0;
    const compute = () => `key-${++computed}`;
    expect(memo.key('k1\0chat\0openai\0gpt-4o', body('{"a":1}'), compute)).to.equal('key-1');
    expect(memo.key('k1\0chat\0openai\0gpt-4o', body('{"a":1}'), compute)).to.equal('key-1');
    expect(computed).to.equal(1);
  });

  it('computes it again for other bytes, or the same bytes in another context', () => {
    const memo = new KeyMemo(10);
    let computed = 0;
    const compute = () => `key-${++computed}`;
    memo.key('k1\0chat\0openai\0gpt-4o', body('{"a":1}'), compute);
    expect(memo.key('k1\0chat\0openai\0gpt-4o', body('{"a": 1}'), compute)).to.equal('key-2');
    expect(memo.key('k2\0chat\0openai\0gpt-4o', body('{"a":1}'), compute)).to.equal('key-3');
    expect(memo.key('k1\0chat\0openai\0gpt-4o-mini', body('{"a":1}'), compute)).to.equal('key-4');
  });

  it('lets the oldest memo go when full, and keeps the others', () => {
    const memo = new KeyMemo(2);
    let computed = 0;
    const compute = () => `key-${++computed}`;
    memo.key('c', body('1'), compute);
    memo.key('c', body('2'), compute);
    memo.key('c', body('3'), compute);
    expect(memo.key('c', body('2'), compute)).to.equal('key-2');
    expect(memo.key('c', body('3'), compute)).to.equal('key-3');
    expect(memo.key('c', body('1'), compute)).to.equal('key-4');
  });
});
