import { expect } from 'chai';
import { requestId } from './request-id.js';

describe('requestId', () => {
  it('is a version-7 UUID carrying the time in its first 48 bits', () => {
    const id = requestId(0x0192_3456_789a);
    expect(id).to.match(/^01923456-789a-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
  it('sorts by time and does not repeat', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => requestId(1_700_000_000_000 + i));
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(2000);
  });
});
