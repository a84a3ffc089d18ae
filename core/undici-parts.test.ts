// The gateway takes undici's Pool and errors from their own modules (undici-parts.ts); they must
// stay the very objects undici's index exports, or an upgrade that moves them would hand the
// core a different class (and `instanceof` on its errors would quietly fail).
import { expect } from 'chai';
import * as undici from 'undici';
import { Pool, errors } from './undici-parts.js';

describe('undici parts', () => {
  it('are the Pool and the error classes undici exports', () => {
    expect(Pool).to.equal(undici.Pool);
    expect(errors).to.equal(undici.errors);
    expect(errors.HeadersTimeoutError).to.equal(undici.errors.HeadersTimeoutError);
  });
});
