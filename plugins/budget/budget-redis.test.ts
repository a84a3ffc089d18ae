// The budget plugin with Redis: two gateway processes sharing the local Redis (127.0.0.1:6379,
// under a key prefix of this run's own) keep one budget between them.
import { expect } from 'chai';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { startChildGateway } from '../limit-state/test-child-gateway.js';
import type { ChildGateway } from '../limit-state/test-child-gateway.js';
import { settled, statusOf } from '../limit-state/test-calls.js';
import { limitConfig, slowChat, uniquePrefix } from '../limit-state/test-config.js';
import { deleteKeys, SHARED_REDIS_URL } from '../limit-state/test-redis.js';

const KEY = 'sk-test-budget-redis-0001';
const CALL_USD = 0.00000495;

describe('budget plugin (Redis, two gateway processes)', function () {
  this.timeout(60_000);
  let mock: MockProvider;
  let prefix: string;
  let replicas: ChildGateway[] = [];

  async function startReplica(): Promise<ChildGateway> {
    const keys = { [KEY]: { id: 'k-shared', budget: { amount_usd: Number((CALL_USD * 5).toFixed(8)), period: 'monthly' as const } } };
    const replica = await startChildGateway({ config: limitConfig(keys, { budget: { redis_url: SHARED_REDIS_URL, key_prefix: prefix } }), env: openAIEnv(mock) });
    replicas.push(replica);
    return replica;
  }

  beforeEach(async () => {
    mock = await startOpenAIMock();
    slowChat(mock, 150);
    prefix = uniquePrefix();
  });
  afterEach(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    replicas = [];
    await mock.close();
    await deleteKeys(prefix);
  });

  it('40 concurrent calls, 20 on each replica, against a budget worth 5 overshoot it by at most one call', async () => {
    const [a, b] = await Promise.all([startReplica(), startReplica()]);
    const clients = [a!.client(KEY), b!.client(KEY)];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => statusOf(clients[i % 2]!)));
    const passed = results.filter((r) => r === '200').length;
    expect(results.filter((r) => r !== '200')).to.deep.equal(Array(40 - passed).fill('429 budget_exceeded'));
    // Each call reserves 6.75 µ$ (its estimate) and costs 4.95: at least 4 fit before the
    // reservations reach the budget; spend (passed x 4.95) stays under the budget plus one call.
    expect(passed).to.be.within(4, 6);
    await settled(200);
    // Once settled, spend is exact: below the budget (4 passed) one more call fits, then none.
    const after = [await statusOf(clients[0]!), await statusOf(clients[1]!)];
    expect(after).to.deep.equal(passed >= 5 ? ['429 budget_exceeded', '429 budget_exceeded'] : ['200', '429 budget_exceeded']);
  });

  it('spend is kept in Redis: a replica started later sees what the others spent', async () => {
    const first = await startReplica();
    const client = first.client(KEY);
    for (let i = 0; i < 5; i++) expect(await statusOf(client)).to.equal('200');
    await settled(200);
    const later = await startReplica();
    expect(await statusOf(later.client(KEY))).to.equal('429 budget_exceeded');
  });
});
