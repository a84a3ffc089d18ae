import { expect } from 'chai';
import { parseEntry } from './entry.js';

describe('parseEntry', () => {
  it('reads back a stored entry', () => {
    expect(parseEntry('{"body":"{\\"id\\":1}","usage":null}')).to.deep.equal({ body: '{"id":1}', usage: null });
  });

  it('gives null for text that is no entry, so the lookup is a miss and not a failure', () => {
    expect([parseEntry('not json'), parseEntry('null'), parseEntry('{"body":{}}'), parseEntry('{"body":"x"}')]).to.deep.equal([null, null, null, null]);
  });
});
