import { expect } from 'chai';
import { startOpenAIMock, OPENAI_KEY } from '../helpers/mock-openai.js';
import { sendJson } from '../helpers/mock-provider.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';
import { recordedCalls } from './call-recorder.test-plugin.js';
import { pluginEntry } from './shared-records.js';

const FAILOVER = new URL('./failover.test-plugin.ts', import.meta.url).href;
const RECORDER = new URL('./call-recorder.test-plugin.ts', import.meta.url).href;
const MESSAGES = [{ role: 'user' as const, content: 'hi' }];

describe('stage fit: a forward tap calls a second target after the first failed before any byte @integration', () => {
  let down: MockProvider;
  let up: MockProvider;
  let gw: TestGateway;

  before(async () => {
    down = await startOpenAIMock();
    down.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 503, { error: { message: 'overloaded', type: 'server_error', code: null } }));
    up = await startOpenAIMock();
    gw = await startTestGateway({
      config: {
        providers: { 'openai-b': { type: 'openai', base_url: `${up.url}/v1`, api_key: 'sk-b' } },
        plugins: [...defaultPlugins(), pluginEntry(FAILOVER, { fallback: 'openai-b/gpt-4o-mini' }), pluginEntry(RECORDER)],
      },
      env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${down.url}/v1` },
    });
  });
  after(async () => {
    await gw?.close();
    await down?.close();
    await up?.close();
  });

  const chatCalls = (mock: MockProvider): Array<{ json: unknown; authorization: string | undefined }> =>
    mock.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => ({ json: r.json, authorization: r.headers['authorization'] }));

  it('answers JSON and a stream from the second target, which got the same request', async () => {
    recordedCalls.length = 0;
    const json = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, temperature: 0.5 }).withResponse();
    expect(json.data.choices[0]!.message.content).to.equal('Hello, World!');
    expect(json.response.headers.get('x-gateway-provider')).to.equal('openai-b');

    const stream = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true }).withResponse();
    let text = '';
    for await (const chunk of stream.data) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).to.equal('Hello, World!');
    expect(stream.response.headers.get('x-gateway-provider')).to.equal('openai-b');

    const tried = chatCalls(down);
    const answered = chatCalls(up);
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
