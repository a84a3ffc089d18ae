import { expect } from 'chai';
import { cacheKey } from './cache-key.js';

const parts = { scope: 'key-1', operation: 'chat', provider: 'openai', model: 'gpt-4o-mini' };
const messages = [{ role: 'user', content: 'hi' }];

describe('cacheKey', () => {
  it('ignores key order and user', () => {
    const a = cacheKey({ ...parts, body: { model: 'm', messages, temperature: 0 } });
    const b = cacheKey({ ...parts, body: { temperature: 0, user: 'u-7', messages: [{ content: 'hi', role: 'user' }], model: 'm' } });
    expect(a).to.equal(b);
  });

  it('keys a stream apart from a JSON answer, and ignores include_usage but no other stream option', () => {
    const json = cacheKey({ ...parts, body: { messages, stream: false } });
    const stream = cacheKey({ ...parts, body: { messages, stream: true } });
    const withUsage = cacheKey({ ...parts, body: { messages, stream: true, stream_options: { include_usage: true } } });
    const plain = cacheKey({ ...parts, body: { messages, stream: true, stream_options: { include_usage: true, include_obfuscation: false } } });
    expect(json).to.equal(cacheKey({ ...parts, body: { messages } }));
    expect(stream).to.not.equal(json);
    expect(withUsage).to.equal(stream);
    expect(plain).to.not.equal(stream);
  });

  it('differs by scope, resolved model and any other field', () => {
    const body = { messages };
    const base = cacheKey({ ...parts, body });
    expect(cacheKey({ ...parts, scope: 'key-2', body })).to.not.equal(base);
    expect(cacheKey({ ...parts, model: 'gpt-4o', body })).to.not.equal(base);
    expect(cacheKey({ ...parts, body: { ...body, temperature: 1 } })).to.not.equal(base);
    expect(cacheKey({ ...parts, body: { messages: [{ role: 'user', content: 'hi!' }] } })).to.not.equal(base);
  });
});
