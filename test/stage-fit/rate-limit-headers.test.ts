import { expect } from 'chai';
import { APIError } from 'openai';
import { defaultPlugins } from '../helpers/plugins.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { testPlugin } from './test-plugin-entry.js';

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];

describe('stage fit: a limit tap sets x-ratelimit-* headers the client sees @integration', () => {
  const fit = withOpenAIGateway(() => ({ plugins: [...defaultPlugins(), testPlugin('./rate-limit-headers.test-plugin.ts', { limit: 2 })] }));

  it('on a JSON answer, on a stream, and on the 429 past the limit', async () => {
    const client = fit.gw.client();
    const json = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }).withResponse();
    expect(json.data.choices[0]!.message.content).to.equal('Hello, World!');
    expect([json.response.headers.get('x-ratelimit-limit-requests'), json.response.headers.get('x-ratelimit-remaining-requests')]).to.deep.equal(['2', '1']);
    expect(json.response.headers.get('x-gateway-provider')).to.equal('openai');

    const stream = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true }).withResponse();
    let text = '';
    for await (const chunk of stream.data) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).to.equal('Hello, World!');
    expect([stream.response.headers.get('x-ratelimit-limit-requests'), stream.response.headers.get('x-ratelimit-remaining-requests')]).to.deep.equal(['2', '0']);
    expect(stream.response.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');

    const refused = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).to.be.instanceOf(APIError);
    const e = refused as APIError;
    expect([e.status, e.code, e.headers?.get('x-ratelimit-remaining-requests'), e.headers?.get('retry-after')]).to.deep.equal([429, 'rate_limit_exceeded', '0', '30']);
    expect(fit.mock.requests.filter((r) => r.path === '/v1/chat/completions').length).to.equal(2);
  });
});
