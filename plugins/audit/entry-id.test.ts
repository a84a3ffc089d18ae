import { expect } from 'chai';
import { requestId } from '../../core/request-id.js';
import { carriesTs, idTime } from './entry-id.js';

describe('audit entry ids', () => {
  it('reads the millisecond a request id was made in', () => {
    for (const ts of [0, 1, Date.UTC(2025, 2, 10, 12, 34, 56, 789), 2 ** 48 - 1]) {
      const id = requestId(ts);
      expect(idTime(id)).to.equal(ts);
      expect(carriesTs(id, ts)).to.equal(true);
      expect(carriesTs(id, ts + 1)).to.equal(false);
    }
  });

  it('says null of an id that is not a lowercase UUIDv7', () => {
    const id = requestId(Date.UTC(2025, 2, 10));
    for (const other of [
      id.toUpperCase(),
      `${id.slice(0, 14)}4${id.slice(15)}`,
      id.slice(1),
      `${id}0`,
      `g${id.slice(1)}`,
      `${id.slice(0, 10)}/${id.slice(11)}`,
      '',
      'm007',
    ]) {
      expect(idTime(other), other).to.equal(null);
    }
  });
});
