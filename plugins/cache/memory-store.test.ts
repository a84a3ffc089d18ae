import { expect } from 'chai';
import { MemoryStore } from './memory-store.js';

const size = (text: string): number => text.length;

describe('MemoryStore', () => {
  it('evicts the least recently used entries to stay within its byte budget', async () => {
    const store = new MemoryStore(10, size);
    await store.set('a', 'aaaa', 1000);
    await store.set('b', 'bbbb', 1000);
    expect(await store.get('a')).to.equal('aaaa'); // a is now the most recently used
    await store.set('c', 'cccc', 1000);
    expect(await store.get('b')).to.equal(undefined);
    expect(await store.get('a')).to.equal('aaaa');
    expect(await store.get('c')).to.equal('cccc');
    expect(store.bytes).to.equal(8);
  });

  it('declines an entry larger than the whole budget', async () => {
    const store = new MemoryStore(4, size);
    await store.set('a', 'aaaaa', 1000);
    expect([store.size, store.bytes]).to.deep.equal([0, 0]);
  });

  it('forgets an entry once its TTL has passed', async () => {
    let now = 0;
    const store = new MemoryStore(100, size, () => now);
    await store.set('a', 'aaaa', 1000);
    now = 999;
    expect(await store.get('a')).to.equal('aaaa');
    now = 1000;
    expect(await store.get('a')).to.equal(undefined);
    expect([store.size, store.bytes]).to.deep.equal([0, 0]);
  });

  it('replaces an entry under the same key without counting it twice', async () => {
    const store = new MemoryStore(100, size);
    await store.set('a', 'aaaa', 1000);
    await store.set('a', 'aa', 1000);
    expect([store.size, store.bytes, await store.get('a')]).to.deep.equal([1, 2, 'aa']);
  });
});
