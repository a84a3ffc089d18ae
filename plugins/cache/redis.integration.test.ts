import { expect } from 'chai';
import { createClient } from '@keyv/redis';
import { waitFor } from '../../test/helpers/net.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { MASTER_KEY, startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { startChildGateway } from '../limit-state/test-child-gateway.js';
import type { ChildGateway } from '../limit-state/test-child-gateway.js';
import { CONTENT_CHUNKS, rawStream, serveTwentyChunks } from './test-streams.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

function redisCache(prefix: string): Record<string, unknown> {
  return { plugins: [...defaultPlugins(), { name: 'cache', options: { backend: 'redis', redis_url: REDIS_URL, key_prefix: prefix, scope: 'deployment' } }] };
}

describe('cache plugin on Redis @integration', () => {
  // Other test runs share the server: a prefix of this run's own, deleted at the end.
  const prefix = `sluice-test-cache-${process.pid}-${Date.now()}`;
  let mock: MockProvider;
  const gateways: TestGateway[] = [];
  const redis = createClient({ url: REDIS_URL });

  before(async () => {
    await redis.connect();
    mock = await startOpenAIMock();
    for (let i = 0; i < 2; i++) gateways.push(await startTestGateway({ config: redisCache(prefix), env: openAIEnv(mock) }));
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

describe('cache plugin on Redis, two gateway processes @integration', function () {
  this.timeout(60_000);
  const prefix = `sluice-test-cache-streams-${process.pid}-${Date.now()}`;
  let mock: MockProvider;
  let replicas: ChildGateway[] = [];
  const redis = createClient({ url: REDIS_URL });

  before(async () => {
    await redis.connect();
    mock = await startOpenAIMock();
    serveTwentyChunks(mock);
    const options = { config: redisCache(prefix), env: openAIEnv(mock) };
    replicas = await Promise.all([startChildGateway(options), startChildGateway(options)]);
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await mock.close();
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*` })) if (keys.length > 0) await redis.del(keys);
    await redis.quit();
  });

  it('replays on one process the stream the other stored, event for event', async () => {
    const body = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user' as const, content: `count ${prefix}` }], stream: true as const, stream_options: { include_usage: true } };
    const first = await rawStream(replicas[0]!.client(MASTER_KEY).chat.completions.create(body));
    await waitFor(async () => (await redis.keys(`${prefix}*`)).length === 1, 3000, 'the entry in Redis');
    const second = await rawStream(replicas[1]!.client(MASTER_KEY).chat.completions.create(body));
    expect([first.cache, second.cache]).to.deep.equal(['MISS', 'HIT']);
    // 20 content chunks, the finish chunk, the usage chunk, [DONE].
    expect(first.data).to.have.length(CONTENT_CHUNKS + 3);
    expect(second.data).to.deep.equal(first.data);
    expect(mock.requests.filter((r) => r.path === '/v1/chat/completions')).to.have.length(1);
  });
});
