// A budget set on a key that has spent already, or moved to another period, through the admin
// API: the key's next call is held to what it spent in that period (read from the audit log),
// in memory and in Redis. One call of gpt-4o-mini costs $0.00000495 (the mock's usage).
import { expect } from 'chai';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { withPluginOptions } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { settled, statusOf } from '../limit-state/test-calls.js';
import { uniquePrefix } from '../limit-state/test-config.js';
import { SHARED_REDIS_URL } from '../limit-state/test-redis.js';

/** Two and a half calls: a key that made three has spent it. */
const SMALL_DAILY = { amount_usd: 0.0000124, period: 'daily' };

for (const backend of ['memory', 'redis'] as const) {
  describe(`budget plugin (${backend}): a budget that changes @integration`, () => {
    let mock: MockProvider;
    let gw: TestGateway;
    before(async () => {
      mock = await startOpenAIMock();
      const budget = backend === 'redis' ? { redis_url: SHARED_REDIS_URL, key_prefix: uniquePrefix() } : {};
      gw = await startTestGateway({ config: { plugins: withPluginOptions('budget', budget) }, env: openAIEnv(mock) });
    });
    after(async () => {
      await gw.close();
      await mock.close();
    });

    async function admin(method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
      const res = await gw.fetch(path, { method, body: JSON.stringify(body) });
      const json = (await res.json()) as Record<string, unknown>;
      expect(res.status, JSON.stringify(json)).to.be.oneOf([200, 201]);
      return json;
    }

    /** Three calls on a new key, each answered; their entries in the audit store. */
    async function keyThatSpent(budget: Record<string, unknown> | null): Promise<{ id: string; secret: string }> {
      const key = (await admin('POST', '/admin/keys', { name: `spender ${backend}`, budget })) as { id: string; secret: string };
      for (let i = 0; i < 3; i++) expect(await statusOf(gw.client(key.secret))).to.equal('200');
      await settled();
      // An admin read stores what the audit writer holds first.
      await gw.fetch('/admin/usage?group_by=key');
      return key;
    }

    /** The PATCH answers once the key directory has told the budget plugin, which seeds the key's spend. */
    async function changeBudget(id: string, budget: Record<string, unknown>): Promise<void> {
      await admin('PATCH', `/admin/keys/${id}`, { budget });
    }

    it('holds a budget moved to another period to what the key spent in that period', async () => {
      const key = await keyThatSpent({ amount_usd: 1, period: 'monthly' });
      await changeBudget(key.id, SMALL_DAILY);
      expect(await statusOf(gw.client(key.secret))).to.equal('429 budget_exceeded');
    });

    it('holds a budget set on a key that had none to what the key spent in its period', async () => {
      const key = await keyThatSpent(null);
      await changeBudget(key.id, SMALL_DAILY);
      expect(await statusOf(gw.client(key.secret))).to.equal('429 budget_exceeded');
    });

    it('leaves room under a budget larger than what the key spent', async () => {
      const key = await keyThatSpent(null);
      // Four calls' worth: one more fits, then it is spent.
      await changeBudget(key.id, { amount_usd: 0.0000198, period: 'daily' });
      expect(await statusOf(gw.client(key.secret))).to.equal('200');
      await settled();
      expect(await statusOf(gw.client(key.secret))).to.equal('429 budget_exceeded');
    });
  });
}
