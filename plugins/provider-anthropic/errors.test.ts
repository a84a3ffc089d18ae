import { expect } from 'chai';
import { fromAnthropicError, statusForErrorType } from './errors.js';

function summary(err: ReturnType<typeof fromAnthropicError>): unknown[] {
  return [err.status, err.type, err.code, err.provider, err.retryable, err.retryAfter, err.message];
}

describe('provider-anthropic fromAnthropicError', () => {
  it('turns 529 overloaded into a retryable 502', () => {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    expect(summary(fromAnthropicError(529, body, 'anthropic'))).to.deep.equal([502, 'provider_error', 'overloaded_error', 'anthropic', true, null, 'Overloaded']);
  });

  it('keeps 4xx status and meaning, with the error type as code', () => {
    const body = { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' }, request_id: 'req_1' };
    expect(summary(fromAnthropicError(400, body, 'anthropic'))).to.deep.equal([
      400,
      'invalid_request_error',
      'invalid_request_error',
      'anthropic',
      false,
      null,
      'max_tokens: Field required',
    ]);
    const limited = fromAnthropicError(429, JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Too many' } }), 'claude', 12);
    expect(summary(limited)).to.deep.equal([429, 'rate_limit_error', 'rate_limit_error', 'claude', true, 12, 'Too many']);
  });

  it('never forwards a body Anthropic did not shape as an error', () => {
    expect(summary(fromAnthropicError(503, '<html>bad gateway</html>', 'anthropic'))).to.deep.equal([
      502,
      'provider_error',
      null,
      'anthropic',
      true,
      null,
      "provider 'anthropic' answered with status 503",
    ]);
  });

  it('knows the documented status of each error type', () => {
    expect(['overloaded_error', 'api_error', 'rate_limit_error', 'not_found_error', 'something_new', null].map(statusForErrorType)).to.deep.equal([
      529, 500, 429, 404, 500, 500,
    ]);
  });
});
