// An answer of status 200 whose body is an error (`{"error": {...}}`, no `choices`), as
// OpenRouter sends when its upstream fails after the head went out: the gateway treats it as the
// provider failing (502 provider_error with the provider's message), a failed attempt that
// failover moves past, and never stores it. Through the openai SDK, with OpenRouter and OpenAI
// mocks (both providers read answers through provider-openai).
import { expect } from 'chai';
import type { Attempt } from '../../core/context.js';
import { auditEntry } from '../../test/helpers/audit-entry.js';
import { sdkError } from '../../test/helpers/errors.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import { MockProvider, sendJson } from '../../test/helpers/mock-provider.js';
import { withPluginOptions } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';

const CHAT = '/v1/chat/completions';
const FAILING = 'openrouter/anthropic/claude-sonnet-4';
/** OpenRouter's error shape (openrouter.ai/docs/api-reference/errors), sent with status 200. */
const ERROR_BODY = { error: { code: 502, message: 'Provider returned error', metadata: { provider_name: 'Anthropic', raw: 'overloaded' } }, user_id: 'user_1' };
const ENVELOPE = { message: 'Provider returned error', type: 'provider_error', code: null, param: null, provider: 'openrouter' };

describe('an answer of status 200 whose body is an error @integration', () => {
  let openrouter: MockProvider;
  let openai: MockProvider;
  let gw: TestGateway;
  before(async () => {
    openrouter = await MockProvider.start();
    openrouter.on('POST', '/api/v1/chat/completions', (_req, res) => sendJson(res, 200, ERROR_BODY));
    openai = await startOpenAIMock();
    gw = await startTestGateway({
      env: { ...openAIEnv(openai), OPENROUTER_API_KEY: 'sk-or-upstream', OPENROUTER_BASE_URL: `${openrouter.url}/api/v1` },
      config: {
        plugins: [
          ...withPluginOptions('router', { virtual_models: { resilient: { targets: [{ model: FAILING }, { model: 'openai/gpt-4o-mini' }] } } }),
          { name: 'failover', options: { retry: { max_retries: 0 } } },
          { name: 'cache', options: {} },
        ],
      },
    });
  });
  after(async () => {
    await gw.close();
    await openrouter.close();
    await openai.close();
  });
  beforeEach(() => {
    openrouter.reset();
    openai.reset();
  });

  let asked = 0;
  const messages = () => [{ role: 'user' as const, content: `hi ${++asked} ${Date.now()}` }];
  const calls = (mock: MockProvider) => mock.requests.filter((r) => r.path.endsWith(CHAT)).length;
  const attempts = async (id: string) => (await auditEntry<{ attempts: Attempt[] }>(gw, id)).attempts.map((a) => [a.provider, a.status, a.error]);

  it('answers 502 provider_error with the provider\'s message, its attempt audited as that failure, and stores nothing', async () => {
    const asked = messages();
    const failures = [];
    for (let i = 0; i < 2; i++) failures.push(await sdkError(gw.client().chat.completions.create({ model: FAILING, messages: asked })));
    expect(failures.map((e) => [e.status, e.error, e.headers?.get('x-cache')])).to.deep.equal([
      [502, ENVELOPE, 'MISS'],
      [502, ENVELOPE, 'MISS'],
    ]);
    expect(calls(openrouter)).to.equal(2);
    const id = failures[0]!.headers!.get('x-request-id')!;
    const entry = await auditEntry<{ status: number; error: { type: string; message: string } }>(gw, id);
    expect([entry.status, entry.error.type, entry.error.message]).to.deep.equal([502, 'provider_error', 'Provider returned error']);
    expect(await attempts(id)).to.deep.equal([['openrouter', 502, 'Provider returned error']]);
  });

  it('answers a stream request the same way (not as a JSON answer that cannot be replayed)', async () => {
    const failure = await sdkError(gw.client().chat.completions.create({ model: FAILING, messages: messages(), stream: true }));
    expect([failure.status, failure.error]).to.deep.equal([502, ENVELOPE]);
  });

  it('fails a virtual model over to its next target, whose answer is the one stored', async () => {
    const asked = messages();
    const ask = async () => {
      const { data, response } = await gw.client().chat.completions.create({ model: 'resilient', messages: asked }).withResponse();
      return { content: data.choices[0]!.message.content, provider: response.headers.get('x-gateway-provider'), cache: response.headers.get('x-cache'), id: response.headers.get('x-request-id')! };
    };
    const first = await ask();
    const again = await ask();
    expect([first, again].map(({ content, provider, cache }) => [content, provider, cache])).to.deep.equal([
      ['Hello, World!', 'openai', 'MISS'],
      ['Hello, World!', 'openai', 'HIT'],
    ]);
    expect(await attempts(first.id)).to.deep.equal([
      ['openrouter', 502, 'Provider returned error'],
      ['openai', 200, null],
    ]);
    expect([calls(openrouter), calls(openai)]).to.deep.equal([1, 1]);
  });
});
