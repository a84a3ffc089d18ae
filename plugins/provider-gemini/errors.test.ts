import { expect } from 'chai';
import { fromGeminiError } from './errors.js';
import { fixtureJson, fixtureText } from './test-fixtures.js';

describe('fromGeminiError', () => {
  it('maps a quota error to a retryable 429 with the retry delay rounded up', () => {
    const err = fromGeminiError(429, fixtureJson('error-429.json'), 'gemini');
    expect(err.status).to.equal(429);
    expect(err.type).to.equal('rate_limit_error');
    expect(err.code).to.equal('RESOURCE_EXHAUSTED');
    expect(err.message).to.equal('You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.');
    expect(err.provider).to.equal('gemini');
    expect(err.retryable).to.equal(true);
    expect(err.retryAfter).to.equal(22);
    expect(err.toEnvelope()).to.deep.equal({
      error: { message: err.message, type: 'rate_limit_error', code: 'RESOURCE_EXHAUSTED', param: null, provider: 'gemini' },
    });
  });

  it('takes a Retry-After header only when the body has no RetryInfo', () => {
    const quota = { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } };
    expect(fromGeminiError(429, quota, 'gemini', 9).retryAfter).to.equal(9);
    expect(fromGeminiError(429, quota, 'gemini').retryAfter).to.equal(null);
    expect(fromGeminiError(429, fixtureJson('error-429.json'), 'gemini', 9).retryAfter).to.equal(22);
  });

  it('reports a rejected API key as an authentication failure', () => {
    const err = fromGeminiError(400, fixtureJson('error-400-api-key.json'), 'gemini');
    expect([err.status, err.type, err.code, err.message]).to.deep.equal([
      401, 'authentication_error', 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.',
    ]);
  });

  it('keeps other 400s as invalid requests', () => {
    const err = fromGeminiError(400, fixtureText('error-400-argument.json'), 'gemini');
    expect([err.status, err.type, err.code, err.retryable, err.retryAfter]).to.deep.equal([400, 'invalid_request_error', 'INVALID_ARGUMENT', false, null]);
  });

  it('turns a Gemini 5xx into a retryable 502', () => {
    const err = fromGeminiError(500, fixtureJson('error-500.json'), 'gemini');
    expect([err.status, err.type, err.code, err.retryable]).to.deep.equal([502, 'provider_error', 'INTERNAL', true]);
  });

  it('reads the array-wrapped form and, below 400, the body\'s own code', () => {
    const body = [{ error: { code: 404, message: 'models/gemini-9 is not found for API version v1beta', status: 'NOT_FOUND' } }];
    const err = fromGeminiError(200, body, 'gemini');
    expect([err.status, err.type, err.code, err.message]).to.deep.equal([404, 'not_found_error', 'NOT_FOUND', 'models/gemini-9 is not found for API version v1beta']);
  });

  it('falls back to the HTTP status when the body is not a Gemini error', () => {
    const err = fromGeminiError(503, '<html>Service Unavailable</html>', 'google-ai');
    expect([err.status, err.code, err.message, err.provider]).to.deep.equal([502, null, "provider 'google-ai' answered HTTP 503", 'google-ai']);
  });
});
