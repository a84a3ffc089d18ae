import { expect } from 'chai';
import { providerFailed, providerStatusError } from '../../core/errors.js';
import { retryDelayMs } from './backoff.js';

const RETRY = { max_retries: 3, backoff_base_ms: 100, backoff_max_ms: 500, retry_after_cap_ms: 2000 };

describe('failover: retry delay', () => {
  it("waits a provider's retry-after up to the cap, and gives up on a longer one", () => {
    expect(retryDelayMs(providerStatusError('a', 429, 'slow', null, null, 2), 0, RETRY)).to.equal(2000);
    expect(retryDelayMs(providerStatusError('a', 429, 'slow', null, null, 3), 0, RETRY)).to.equal(null);
  });

  it('draws full jitter below a ceiling that doubles per retry up to the maximum', () => {
    const err = providerFailed('a', 'boom');
    expect([0, 1, 2, 3].map((retry) => retryDelayMs(err, retry, RETRY, () => 0.999999))).to.deep.equal([99, 199, 399, 499]);
    expect(retryDelayMs(err, 1, RETRY, () => 0)).to.equal(0);
  });
});
