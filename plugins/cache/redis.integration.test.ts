import { expect } from 'chai';
import { createClient } from '@keyv/redis';
import { waitFor } from '../../test/helpers/net.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

describe('cache plugin on Redis @integration', () => {
  // Other test runs share the server: a prefix of this run's own, deleted at the end.
  const prefix = `sluice-test-cache-${process.pid}-${Date.now()}`;
  let mock: MockProvider;
  const gateways: TestGateway[] = [];
  const redis = createClient({ url: REDIS_URL });

  before(async () => {
    await redis.connect();
    mock = await startOpenAIMock();
    const config = { plugins: [...defaultPlugins(), { name: 'cache', options: { backend: 'redis', redis_url: REDIS_URL, key_prefix: prefix, scope: 'deployment' } }] };
    for (let i = 0; i < 2; i++) gateways.push(await startTestGateway({ config, env: openAIEnv(mock) }));
  });

  after(async () => {
    for (const gw of gateways) await gw.close();
    await mock.close();
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*` })) if (keys.length > 0) await redis.del(keys);
    await redis.quit();
  });

  it('answers a call on a second gateway from the entry the first one stored', async () => {
    const messages = [{ role: 'user' as const, content: `shared ${prefix}` }];
    const ask = async (gw: TestGateway) => {
      const { data, response } = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages }).withResponse();
      return { content: data.choices[0]!.message.content, cache: response.headers.get('x-cache') };
    };
    const first = await ask(gateways[0]!);
    // The entry is written after the answer went out.
    await waitFor(async () => (await redis.keys(`${prefix}*`)).length === 1, 3000, 'the entry in Redis');
    const second = await ask(gateways[1]!);
    expect(first).to.deep.equal({ content: 'Hello, World!', cache: 'MISS' });
    expect(second).to.deep.equal({ content: 'Hello, World!', cache: 'HIT' });
    expect(mock.requests.filter((r) => r.path === '/v1/chat/completions')).to.have.length(1);
  });
});
