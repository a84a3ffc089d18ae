import { expect } from 'chai';
import { startOpenAIMock } from '../helpers/mock-openai.js';
import { sendJson } from '../helpers/mock-provider.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { recordedCalls } from './call-recorder.test-plugin.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { testPlugin } from './test-plugin-entry.js';

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];

describe('stage fit: a forward tap calls a second target after the first failed before any byte @integration', () => {
  // The routed target (openai) is the gateway's mock, made to fail; the fallback (openai-b) answers.
  let up: MockProvider;
  before(async () => {
    up = await startOpenAIMock();
  });
  after(async () => {
    await up?.close();
  });
  const fit = withOpenAIGateway((down) => {
    down.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 503, { error: { message: 'overloaded', type: 'server_error', code: null } }));
    return {
      providers: { 'openai-b': { type: 'openai', base_url: `${up.url}/v1`, api_key: 'sk-b' } },
      plugins: [...defaultPlugins(), testPlugin('./failover.test-plugin.ts', { fallback: 'openai-b/gpt-4o-mini' }), testPlugin('./call-recorder.test-plugin.ts')],
    };
  });

  const sentBodies = (mock: MockProvider): Array<{ json: unknown; authorization: string | undefined }> =>
    mock.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => ({ json: r.json, authorization: r.headers['authorization'] }));

  it('answers JSON and a stream from the second target, which got the same request', async () => {
    recordedCalls.length = 0;
    const json = await fit.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, temperature: 0.5 }).withResponse();
    expect(json.data.choices[0]!.message.content).to.equal('Hello, World!');
    expect(json.response.headers.get('x-gateway-provider')).to.equal('openai-b');

    const stream = await fit.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true }).withResponse();
    let text = '';
    for await (const chunk of stream.data) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).to.equal('Hello, World!');
    expect(stream.response.headers.get('x-gateway-provider')).to.equal('openai-b');

    const tried = sentBodies(fit.mock);
    const answered = sentBodies(up);
    expect(tried.map((c) => c.json)).to.deep.equal(answered.map((c) => c.json));
    expect(answered.map((c) => c.json)).to.deep.equal([
      { model: 'gpt-4o-mini', messages: MESSAGES, temperature: 0.5 },
      { model: 'gpt-4o-mini', messages: MESSAGES, stream: true, stream_options: { include_usage: true } },
    ]);
    expect(answered.map((c) => c.authorization)).to.deep.equal(['Bearer sk-b', 'Bearer sk-b']);

    expect(recordedCalls.map((c) => [c.status, c.provider, c.attempts.map((a) => [a.provider, a.status, a.error])])).to.deep.equal([
      [200, 'openai-b', [['openai', 502, 'overloaded'], ['openai-b', 200, null]]],
      [200, 'openai-b', [['openai', 502, 'overloaded'], ['openai-b', 200, null]]],
    ]);
  });
});
