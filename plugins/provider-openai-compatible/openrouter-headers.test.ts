import { expect } from 'chai';
import { openrouterHeaders } from './openrouter-headers.js';

describe('provider-openai-compatible: OpenRouter attribution headers', () => {
  it('sends HTTP-Referer and the title under its current and its older name', () => {
    expect(openrouterHeaders({ http_referer: 'https://app.example', app_title: 'Acme Chat' })).to.deep.equal({
      'http-referer': 'https://app.example',
      'x-openrouter-title': 'Acme Chat',
      'x-title': 'Acme Chat',
    });
  });

  it('sends nothing it was not given', () => {
    expect(openrouterHeaders({})).to.deep.equal({});
    expect(openrouterHeaders({ http_referer: 'https://app.example' })).to.deep.equal({ 'http-referer': 'https://app.example' });
  });
});
