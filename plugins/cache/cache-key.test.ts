import { expect } from 'chai';
import { cacheKey } from './cache-key.js';

const parts = { scope: 'key-1', operation: 'chat', provider: 'openai', model: 'gpt-4o-mini' };

describe('cacheKey', () => {
  it('ignores key order, stream, stream_options and user', () => {
    const a = cacheKey({ ...parts, body: { model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 0 } });
    const b = cacheKey({ ...parts, body: { temperature: 0, stream: true, stream_options: { include_usage: true }, user: 'u-7', messages: [{ content: 'hi', role: 'user' }], model: 'm' } });
    expect(a).to.equal(b);
  });

  it('differs by scope, resolved model and any other field', () => {
    const body = { messages: [{ role: 'user', content: 'hi' }] };
    const base = cacheKey({ ...parts, body });
    expect(cacheKey({ ...parts, scope: 'key-2', body })).to.not.equal(base);
    expect(cacheKey({ ...parts, model: 'gpt-4o', body })).to.not.equal(base);
    expect(cacheKey({ ...parts, body: { ...body, temperature: 1 } })).to.not.equal(base);
    expect(cacheKey({ ...parts, body: { messages: [{ role: 'user', content: 'hi!' }] } })).to.not.equal(base);
  });
});
