import { expect } from 'chai';
import { createClient } from '@keyv/redis';
import { auditEntry } from '../../test/helpers/audit-entry.js';
import { memoryLogger } from '../../test/helpers/memory-logger.js';
import { waitFor } from '../../test/helpers/net.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { sendJson } from '../../test/helpers/mock-provider.js';
import { defaultPlugins, withPluginOptions } from '../../test/helpers/plugins.js';
import { MASTER_KEY, startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { startChildGateway } from '../limit-state/test-child-gateway.js';
import type { ChildGateway } from '../limit-state/test-child-gateway.js';
import { deleteKeys, SHARED_REDIS_URL, TestRedisServer } from '../limit-state/test-redis.js';
import { CONTENT_CHUNKS, rawStream, serveTwentyChunks } from './test-streams.js';

describe('cache plugin on Redis @integration', function () {
  this.timeout(60_000);
  // Other test runs share the server: prefixes of this run's own, deleted at the end.
  const run = `sluice-test-cache-${process.pid}-${Date.now()}`;
  const redis = createClient({ url: SHARED_REDIS_URL });
  let mock: MockProvider;

  const options = (prefix: string, url = SHARED_REDIS_URL) => ({
    config: { plugins: [...defaultPlugins(), { name: 'cache', options: { backend: 'redis', redis_url: url, key_prefix: prefix, scope: 'deployment' } }] },
    env: openAIEnv(mock),
  });
  const chatCalls = (): number => mock.requests.filter((r) => r.path === '/v1/chat/completions').length;
  // The entry is written after the answer went out.
  const stored = (prefix: string) => waitFor(async () => (await redis.keys(`${prefix}*`)).length === 1, 3000, 'the entry in Redis');

  before(async () => {
    await redis.connect();
    mock = await startOpenAIMock();
    serveTwentyChunks(mock);
  });
  beforeEach(() => mock.reset());
  after(async () => {
    await mock.close();
    await deleteKeys(run);
    await redis.quit();
  });

  describe('two gateways in one process', () => {
    const prefix = `${run}-json`;
    const gateways: TestGateway[] = [];
    before(async () => {
      for (let i = 0; i < 2; i++) gateways.push(await startTestGateway(options(prefix)));
    });
    after(async () => {
      for (const gw of gateways) await gw.close();
    });

    it('answers a call on a second gateway from the entry the first one stored', async () => {
      const messages = [{ role: 'user' as const, content: `shared ${prefix}` }];
      const ask = async (gw: TestGateway) => {
        const { data, response } = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages }).withResponse();
        return { content: data.choices[0]!.message.content, cache: response.headers.get('x-cache') };
      };
      const first = await ask(gateways[0]!);
      await stored(prefix);
      const second = await ask(gateways[1]!);
      expect(first).to.deep.equal({ content: 'Hello, World!', cache: 'MISS' });
      expect(second).to.deep.equal({ content: 'Hello, World!', cache: 'HIT' });
      expect(chatCalls()).to.equal(1);
    });
  });

  describe('an entry a previous version stored', () => {
    const prefix = `${run}-previous`;
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway(options(prefix));
    });
    after(() => gw.close());

    it('is still a hit: its head without answered_by names the routed target, as hits did then', async () => {
      const messages = [{ role: 'user' as const, content: `previous ${prefix}` }];
      const ask = async () => {
        const { response } = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages }).withResponse();
        return [response.headers.get('x-cache'), response.headers.get('x-gateway-provider'), response.headers.get('x-gateway-model')];
      };
      expect(await ask()).to.deep.equal(['MISS', 'openai', 'gpt-4o-mini']);
      await stored(prefix);
      // Rewritten in the previous version's form: keyv's record, whose value's head has no answered_by.
      const [key] = await redis.keys(`${prefix}*`);
      const record = JSON.parse((await redis.get(key!))!) as { value: string };
      const [head, ...payload] = record.value.split('\n');
      const { answered_by: answeredBy, ...previous } = JSON.parse(head!) as Record<string, unknown>;
      expect(answeredBy).to.deep.equal({ provider: 'openai', model: 'gpt-4o-mini', id: 'openai/gpt-4o-mini' });
      record.value = [JSON.stringify(previous), ...payload].join('\n');
      await redis.set(key!, JSON.stringify(record), { KEEPTTL: true });
      expect(await ask()).to.deep.equal(['HIT', 'openai', 'gpt-4o-mini']);
      expect(chatCalls()).to.equal(1);
    });
  });

  describe('an entry whose usage is in another form', () => {
    const prefix = `${run}-usage`;
    let gw: TestGateway;
    before(async () => {
      gw = await startTestGateway(options(prefix));
    });
    after(() => gw.close());

    it('is a miss, answered and replaced by the provider, rather than a hit audited with that usage', async () => {
      const messages = [{ role: 'user' as const, content: `usage ${prefix}` }];
      const ask = async () => {
        const { response } = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages }).withResponse();
        const entry = await auditEntry<{ usage: unknown }>(gw, response.headers.get('x-request-id')!);
        return { cache: response.headers.get('x-cache'), usage: entry.usage };
      };
      const first = await ask();
      await stored(prefix);
      // Anything under the prefix of a shared Redis: here a head whose usage is the provider's own fields.
      const [key] = await redis.keys(`${prefix}*`);
      const record = JSON.parse((await redis.get(key!))!) as { value: string };
      const end = record.value.indexOf('\n');
      const head = JSON.parse(record.value.slice(0, end)) as Record<string, unknown>;
      record.value = JSON.stringify({ ...head, usage: { prompt_tokens: 17, completion_tokens: 4, total_tokens: 21 } }) + record.value.slice(end);
      await redis.set(key!, JSON.stringify(record), { KEEPTTL: true });
      const odd = await ask();
      expect([first.cache, odd.cache, odd.usage]).to.deep.equal(['MISS', 'MISS', first.usage]);
      await waitFor(async () => (JSON.parse((await redis.get(key!))!) as { value: string }).value !== record.value, 3000, 'the entry replaced');
      const again = await ask();
      expect([again.cache, again.usage]).to.deep.equal(['HIT', first.usage]);
      expect(chatCalls()).to.equal(2);
    });
  });

  describe('an entry whose answering provider another replica does not enable', () => {
    // Replica `full` tries `openai` (failing) then `second`, which answers; replica `lean` has no
    // `second`: its `openai` is the gateway's usual mock.
    const prefix = `${run}-lean`;
    const gateways: TestGateway[] = [];
    let failing: MockProvider;
    let second: MockProvider;
    const RESILIENT = { resilient: { targets: [{ model: 'openai/gpt-4o-mini' }, { model: 'second/gpt-4o-mini' }] } };
    const replica = (openai: MockProvider, providers: Record<string, unknown>) => ({
      config: {
        providers,
        plugins: [...withPluginOptions('router', { virtual_models: RESILIENT }), { name: 'failover', options: { retry: { max_retries: 0 } } }, { name: 'cache', options: { backend: 'redis', redis_url: SHARED_REDIS_URL, key_prefix: prefix, scope: 'deployment' } }],
      },
      env: openAIEnv(openai),
    });
    before(async () => {
      failing = await startOpenAIMock();
      failing.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 500, { error: { message: 'boom', type: 'server_error' } }));
      second = await startOpenAIMock();
      gateways.push(await startTestGateway(replica(failing, { second: { type: 'openai', base_url: `${second.url}/v1`, api_key: 'sk-second' } })));
      gateways.push(await startTestGateway(replica(mock, {})));
    });
    after(async () => {
      for (const gw of gateways) await gw.close();
      await failing.close();
      await second.close();
    });

    it('is a miss there, answered by its own target, rather than a hit naming a target that did not answer', async () => {
      const messages = [{ role: 'user' as const, content: `lean ${prefix}` }];
      const ask = async (gw: TestGateway) => {
        const { response } = await gw.client().chat.completions.create({ model: 'resilient', messages }).withResponse();
        return [response.headers.get('x-cache'), response.headers.get('x-gateway-provider')];
      };
      expect(await ask(gateways[0]!)).to.deep.equal(['MISS', 'second']);
      await stored(prefix);
      expect(await ask(gateways[1]!)).to.deep.equal(['MISS', 'openai']);
      expect([chatCalls(), second.requests.filter((r) => r.path === '/v1/chat/completions').length]).to.deep.equal([1, 1]);
    });
  });

  describe('two gateway processes', () => {
    const prefix = `${run}-streams`;
    let replicas: ChildGateway[] = [];
    before(async () => {
      replicas = await Promise.all([startChildGateway(options(prefix)), startChildGateway(options(prefix))]);
    });
    after(async () => {
      await Promise.all(replicas.map((r) => r.close()));
    });

    it('replays on one process the stream the other stored, event for event', async () => {
      const body = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user' as const, content: `count ${prefix}` }], stream: true as const, stream_options: { include_usage: true } };
      const first = await rawStream(replicas[0]!.client(MASTER_KEY).chat.completions.create(body));
      await stored(prefix);
      const second = await rawStream(replicas[1]!.client(MASTER_KEY).chat.completions.create(body));
      expect([first.cache, second.cache]).to.deep.equal(['MISS', 'HIT']);
      // 20 content chunks, the finish chunk, the usage chunk, [DONE].
      expect(first.data).to.have.length(CONTENT_CHUNKS + 3);
      expect(second.data).to.deep.equal(first.data);
      expect(chatCalls()).to.equal(1);
    });
  });

  describe('while Redis is down', () => {
    let down: TestRedisServer;
    let gw: TestGateway | null = null;
    before(async () => {
      down = await TestRedisServer.start();
    });
    beforeEach(() => down.stop());
    afterEach(async () => {
      await gw?.close();
      gw = null;
    });
    after(() => down.stop());

    /** One chat call: its status and x-cache, or `timed out` when it took over 3 s. */
    const ask = async (content: string): Promise<string> => {
      const body = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content }] });
      try {
        const res = await gw!.fetch('/v1/chat/completions', { method: 'POST', body, signal: AbortSignal.timeout(3000) });
        return `${res.status} ${res.headers.get('x-cache')}`;
      } catch {
        return 'timed out';
      }
    };

    it('answers every call as a miss at once, logs the outage once, and caches again once Redis is back', async () => {
      const log = memoryLogger('info');
      gw = await startTestGateway({ ...options(`${run}-down`, down.url), logger: log.logger });
      expect([await ask('down'), await ask('down'), await ask('down')]).to.deep.equal(['200 MISS', '200 MISS', '200 MISS']);
      expect(chatCalls()).to.equal(3);
      const outage = (): string[] => log.lines.filter((l) => l.includes('redis'));
      expect(outage()).to.have.length(1);
      expect(outage()[0]).to.match(/^warn cache: redis unreachable/);
      await down.resume();
      await waitFor(async () => (await ask('back')) === '200 HIT', 8000, 'a hit once Redis is back');
      expect(outage()[1]).to.match(/^info cache: redis reachable again/);
    });

    it('answers a call as a miss at once when Redis goes away after the start', async () => {
      await down.resume();
      gw = await startTestGateway(options(`${run}-gone`, down.url));
      expect(await ask('before the outage')).to.equal('200 MISS');
      await down.stop();
      expect([await ask('during the outage'), await ask('during the outage')]).to.deep.equal(['200 MISS', '200 MISS']);
    });
  });
});
