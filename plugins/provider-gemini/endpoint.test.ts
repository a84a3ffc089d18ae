import { expect } from 'chai';
import { isGatewayError } from '../../core/errors.js';
import type { Provider, Target } from '../../core/provider.js';
import { geminiEndpoint, modelListUrl, modelMethodUrl } from './endpoint.js';

const PROVIDER: Provider = { name: 'gemini', type: 'gemini', operations: {} };

function target(model: string): Target {
  return { provider: PROVIDER, model, id: `gemini/${model}`, metadata: null };
}

describe('geminiEndpoint', () => {
  it('puts the key in x-goog-api-key and the version after the base URL', () => {
    const ep = geminiEndpoint('gemini', 'https://generativelanguage.googleapis.com/', 'AIza-k');
    expect(ep.baseUrl).to.equal('https://generativelanguage.googleapis.com');
    expect(ep.headers).to.deep.equal({ 'x-goog-api-key': 'AIza-k', 'user-agent': 'sluice' });
    expect(ep.jsonHeaders).to.deep.equal({ 'x-goog-api-key': 'AIza-k', 'user-agent': 'sluice', 'content-type': 'application/json' });
    expect(ep.authHeaders).to.deep.equal({ 'x-goog-api-key': 'AIza-k' });
    expect(modelMethodUrl(ep, target('gemini-2.5-flash'), 'generateContent')).to.equal(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    );
  });

  it('does not double a version already on the base URL, and sends no key header without a key', () => {
    const ep = geminiEndpoint('gemini-proxy', 'http://127.0.0.1:9/google/v1beta', null);
    expect(ep.headers).to.deep.equal({ 'user-agent': 'sluice' });
    expect(ep.authHeaders).to.deep.equal({});
    expect(modelMethodUrl(ep, target('models/gemini-embedding-001'), 'batchEmbedContents')).to.equal(
      'http://127.0.0.1:9/google/v1beta/models/gemini-embedding-001:batchEmbedContents',
    );
    expect(modelListUrl(ep, 1000, 'a+b/c=')).to.equal('http://127.0.0.1:9/google/v1beta/models?pageSize=1000&pageToken=a%2Bb%2Fc%3D');
    expect(modelListUrl(ep, 50, undefined)).to.equal('http://127.0.0.1:9/google/v1beta/models?pageSize=50');
  });

  it('refuses model names that would steer the URL elsewhere', () => {
    const ep = geminiEndpoint('gemini', 'https://generativelanguage.googleapis.com', 'k');
    for (const model of ['../../v1beta/files', 'gemini-2.5-flash?key=x', 'tunedModels/x', '.hidden', 'a b', '']) {
      try {
        modelMethodUrl(ep, target(model), 'generateContent');
        expect.fail(`accepted ${model}`);
      } catch (err) {
        expect(isGatewayError(err) && err.status === 404 && err.code === 'model_not_found', model).to.equal(true);
      }
    }
  });
});
