import { expect } from 'chai';
import { StreamCopy } from './stream-copy.js';

describe('stream copy', () => {
  it('gives back what it was given in order, bytes read as UTF-8', () => {
    const copy = new StreamCopy(100);
    copy.add('data: a\n\n');
    copy.add(Buffer.from('data: "日本"\n\n'));
    copy.add('');
    expect([copy.text(), copy.overflowed]).to.deep.equal(['data: a\n\ndata: "日本"\n\n', false]);
  });

  it('keeps up to its limit, and nothing at all once past it', () => {
    const copy = new StreamCopy(18);
    copy.add('data: a\n\n');
    copy.add('data: b\n\n');
    expect(copy.text()).to.equal('data: a\n\ndata: b\n\n');
    copy.add('x');
    copy.add('');
    expect([copy.text(), copy.overflowed]).to.deep.equal([null, true]);
  });

  it('has no text when nothing was added', () => {
    expect(new StreamCopy(10).text()).to.equal(null);
  });
});
