// The ratelimit plugin with Redis: one limit across two gateway processes sharing the local
// Redis (under a key prefix of this run's own), and what happens while Redis is down, with a
// redis-server of the test's own that it stops and starts again.
import { expect } from 'chai';
import { memoryLogger } from '../../test/helpers/memory-logger.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { waitFor } from '../../test/helpers/net.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { startChildGateway } from '../limit-state/test-child-gateway.js';
import type { ChildGateway } from '../limit-state/test-child-gateway.js';
import { awayFromMinuteEdge, call } from '../limit-state/test-calls.js';
import { limitConfig, uniquePrefix } from '../limit-state/test-config.js';
import { deleteKeys, SHARED_REDIS_URL, TestRedisServer } from '../limit-state/test-redis.js';

const KEY = 'sk-test-ratelimit-redis-0001';
const KEYS = { [KEY]: { id: 'k-global', rate_limit: { rpm: 4, tpm: null, concurrent: null } } };

describe('ratelimit plugin (Redis)', function () {
  this.timeout(60_000);
  let mock: MockProvider;

  beforeEach(async () => {
    mock = await startOpenAIMock();
  });
  afterEach(() => mock.close());

  describe('two gateway processes sharing Redis', () => {
    const prefix = uniquePrefix();
    let replicas: ChildGateway[] = [];
    afterEach(async () => {
      await Promise.all(replicas.map((r) => r.close()));
      replicas = [];
      await deleteKeys(prefix);
    });

    it('hold one rpm between them: the remaining count goes down across both, and the fifth call is refused', async () => {
      const options = { config: limitConfig(KEYS, { ratelimit: { redis_url: SHARED_REDIS_URL, key_prefix: prefix } }), env: openAIEnv(mock) };
      replicas = await Promise.all([startChildGateway(options), startChildGateway(options)]);
      const [a, b] = replicas.map((r) => r.client(KEY));
      await awayFromMinuteEdge();
      const outcomes = [];
      for (const client of [a!, b!, a!, b!, a!]) outcomes.push(await call(client, { stream: outcomes.length === 1 }));
      expect(outcomes.map((o) => [o.status, o.headers['x-ratelimit-remaining-requests']])).to.deep.equal([
        [200, '3'],
        [200, '2'],
        [200, '1'],
        [200, '0'],
        [429, '0'],
      ]);
      expect(outcomes[4]!.code).to.equal('rate_limit_exceeded');
    });
  });

  describe('with Redis stopped', () => {
    let redis: TestRedisServer;
    let gw: TestGateway | null = null;
    beforeEach(async () => {
      redis = await TestRedisServer.start();
    });
    afterEach(async () => {
      await gw?.close();
      gw = null;
      await redis.stop();
    });

    async function startWith(onError: 'open' | 'closed'): Promise<{ gw: TestGateway; lines: string[] }> {
      const log = memoryLogger('info');
      gw = await startTestGateway({ config: limitConfig(KEYS, { ratelimit: { redis_url: redis.url, on_redis_error: onError } }), env: openAIEnv(mock), logger: log.logger });
      await waitFor(async () => (await call(gw!.client(KEY))).headers['x-ratelimit-limit-requests'] === '4', 5000, 'the limiter to reach redis');
      return { gw, lines: log.lines };
    }

    const outage = (lines: string[]): string[] => lines.filter((l) => l.includes('redis'));

    it('fail-open: calls pass without x-ratelimit headers, the outage is logged once, and limits come back with Redis', async () => {
      const { gw, lines } = await startWith('open');
      await redis.stop();
      const during = [await call(gw.client(KEY)), await call(gw.client(KEY)), await call(gw.client(KEY))];
      expect(during.map((o) => [o.status, o.headers['x-ratelimit-limit-requests']])).to.deep.equal([
        [200, null],
        [200, null],
        [200, null],
      ]);
      expect(outage(lines)).to.have.length(1);
      expect(outage(lines)[0]).to.match(/^warn .*redis unreachable/);
      await redis.resume();
      await waitFor(async () => (await call(gw.client(KEY))).headers['x-ratelimit-limit-requests'] === '4', 8000, 'the limiter to reach redis again');
      expect(outage(lines)).to.have.length(2);
      expect(outage(lines)[1]).to.match(/^info .*redis reachable again/);
    });

    it('fail-closed: calls get 503 limits_unavailable at once, and pass again once Redis is back', async () => {
      const { gw } = await startWith('closed');
      await redis.stop();
      const started = performance.now();
      const refused = await call(gw.client(KEY));
      expect(performance.now() - started).to.be.below(1000);
      expect([refused.status, refused.code, refused.headers['retry-after']]).to.deep.equal([503, 'limits_unavailable', '1']);
      await redis.resume();
      await waitFor(async () => (await call(gw.client(KEY))).status === 200, 8000, 'calls to pass again');
    });
  });
});
