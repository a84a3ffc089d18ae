// The budget plugin in memory mode, through the openai SDK against the OpenAI mock. One call
// of gpt-4o-mini costs 17 x $0.15 + 4 x $0.60 per million tokens = $0.00000495 (the mock's usage).
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import { OPENAI_KEY } from '../../test/helpers/mock-openai.js';
import { sendJson, sendSse } from '../../test/helpers/mock-provider.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { slowChat, withLimitGateway } from '../limit-state/test-config.js';
import { CHAT, settled, statusOf } from '../limit-state/test-calls.js';
import type { TestKey } from '../limit-state/test-keys.js';
import { periodBounds } from './period.js';

const KEY = 'sk-test-budget-key-0001';
const CALL_USD = 0.00000495;

function budgetKey(calls: number, period: 'daily' | 'total' = 'daily'): Record<string, TestKey> {
  return { [KEY]: { id: 'k-budget', budget: { amount_usd: Number((CALL_USD * calls).toFixed(8)), period } } };
}

/** A chat chunk carrying `content`, as a stream sends it before its usage chunk. */
function contentChunk(content: string): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-cut', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}`;
}

describe('budget plugin (memory)', () => {
  const limits = withLimitGateway();
  const start = (keys: Record<string, TestKey>, budget: Record<string, unknown> = {}, dataDir?: string): Promise<TestGateway> =>
    limits.start(keys, { budget }, dataDir === undefined ? {} : { dataDir });

  it('sequential calls: the five the budget pays for pass, the sixth is 429 budget_exceeded with retry-after at the period end', async () => {
    const g = await start(budgetKey(5));
    const client = g.client(KEY);
    const results: string[] = [];
    for (let i = 0; i < 6; i++) {
      results.push(await statusOf(client));
      await settled();
    }
    expect(results).to.deep.equal(['200', '200', '200', '200', '200', '429 budget_exceeded']);
    const res = await g.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify(CHAT) });
    const body = (await res.json()) as { error: Record<string, unknown> };
    expect(res.status).to.equal(429);
    expect(body.error).to.deep.equal({ message: 'the budget of $0.00002475 for key:k-budget is spent for this period', type: 'rate_limit_error', code: 'budget_exceeded', param: null });
    const untilReset = (periodBounds('daily', Date.now()).end! - Date.now()) / 1000;
    expect(Number(res.headers.get('retry-after'))).to.be.within(untilReset - 2, untilReset + 2);
  });

  it("a total budget's refusal says retry-after a day: it never resets, and the 429 always carries one", async () => {
    const g = await start(budgetKey(1, 'total'));
    expect(await statusOf(g.client(KEY))).to.equal('200');
    await settled();
    const res = await g.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify(CHAT) });
    expect([res.status, res.headers.get('retry-after'), ((await res.json()) as { error: { code: string } }).error.code]).to.deep.equal([429, '86400', 'budget_exceeded']);
  });

  it('40 concurrent calls against a budget worth 5 overshoot it by at most one call', async () => {
    slowChat(limits.mock, 150);
    const g = await start(budgetKey(5));
    const client = g.client(KEY);
    const results = await Promise.all(Array.from({ length: 40 }, () => statusOf(client)));
    const passed = results.filter((r) => r === '200').length;
    expect(results.filter((r) => r !== '200')).to.deep.equal(Array(40 - passed).fill('429 budget_exceeded'));
    // Each call reserves 6.75 µ$ (its estimate) and costs 4.95: at least 4 fit before the
    // reservations reach the budget; spend (passed x 4.95) stays under the budget plus one call.
    expect(passed).to.be.within(4, 6);
    // Once settled, spend is exact: below the budget (4 passed) one more call fits.
    await settled();
    expect(await statusOf(client)).to.equal(passed >= 5 ? '429 budget_exceeded' : '200');
  });

  it('a failed call and a client that goes away give their reservation back', async () => {
    // Worth one call: a reservation left behind would refuse the next call.
    const g = await start(budgetKey(1));
    const client = g.client(KEY);
    limits.mock.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 500, { error: { message: 'boom', type: 'server_error' } }));
    expect(await statusOf(client)).to.equal('502 server_error');
    await settled();
    slowChat(limits.mock, 2000);
    const gone = new AbortController();
    const abandoned = client.chat.completions.create(CHAT, { signal: gone.signal }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 200));
    gone.abort();
    expect(await abandoned).to.equal('aborted');
    await new Promise((r) => setTimeout(r, 200));
    slowChat(limits.mock, 0);
    expect(await statusOf(client)).to.equal('200');
    await settled();
    expect(await statusOf(client)).to.equal('429 budget_exceeded');
  });

  it('a stream its client leaves before the usage came keeps its reservation: the provider billed what it generated', async () => {
    // Worth one call: a cut stream that gave its reservation back would let calls through for ever.
    const g = await start(budgetKey(1));
    limits.mock.on('POST', '/v1/chat/completions', async (req, res) => {
      if ((req.json as { stream?: boolean }).stream !== true) return sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
      await sendSse(res, [contentChunk('Hel'), contentChunk('lo'), contentChunk('!'), 'data: [DONE]'], 200);
    });
    const gone = new AbortController();
    const cut = await g.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify({ ...CHAT, stream: true }), signal: gone.signal });
    const first = await cut.body!.getReader().read();
    expect([cut.status, first.done]).to.deep.equal([200, false]);
    gone.abort();
    await settled(300);
    expect(await statusOf(g.client(KEY))).to.equal('429 budget_exceeded');
  });

  it('a virtual model reserves at its priciest target: concurrent calls that fail over to it overshoot by at most one call', async () => {
    // `pricey` serves the same mock at 1000 times gpt-4o-mini's price: $0.00495 a call. The
    // budget is worth 1.2 of its calls; the first target fails, so every call is answered by `pricey`.
    const PRICEY_CALL_USD = CALL_USD * 1000;
    limits.mock.on('POST', '/v1/chat/completions', async (req, res) => {
      if (req.headers.authorization === `Bearer ${OPENAI_KEY}`) return sendJson(res, 500, { error: { message: 'down', type: 'server_error' } });
      await sleep(150);
      sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
    });
    const router = {
      virtual_models: { resilient: { targets: [{ model: 'openai/gpt-4o-mini' }, { model: 'pricey/gpt-4o-mini' }] } },
      model_overrides: { 'pricey/gpt-4o-mini': { pricing: { currency: 'USD', input_per_mtok: 150, output_per_mtok: 600 } } },
    };
    const providers = { pricey: { type: 'openai', base_url: `${limits.mock.url}/v1`, api_key: 'sk-pricey' } };
    const keys = { [KEY]: { id: 'k-virtual', budget: { amount_usd: Number((PRICEY_CALL_USD * 1.2).toFixed(8)), period: 'daily' as const } } };
    const g = await limits.start(keys, { budget: {}, router, failover: { retry: { max_retries: 0 } } }, { config: { providers } });
    const client = g.client(KEY);
    const results = await Promise.all(Array.from({ length: 10 }, () => statusOf(client, { ...CHAT, model: 'resilient' })));
    const passed = results.filter((r) => r === '200').length;
    expect(results.filter((r) => r !== '200')).to.deep.equal(Array(10 - passed).fill('429 budget_exceeded'));
    // Spend (passed x $0.00495) stays within the budget ($0.00594) plus one call.
    expect(passed).to.be.within(1, 2);
  });

  it('a cache hit gives its reservation back and spends nothing', async () => {
    // Worth one call: a cache hit that kept its reservation, or spent, would refuse the real call.
    const client = (await limits.start(budgetKey(1), { budget: {}, cache: true })).client(KEY);
    const cached = { ...CHAT, messages: [{ role: 'user' as const, content: 'cached' }] };
    expect([await statusOf(client, cached), await statusOf(client, cached)]).to.deep.equal(['200', '200']);
    await settled();
    expect(await statusOf(client)).to.equal('200');
    await settled();
    expect(await statusOf(client)).to.equal('429 budget_exceeded');
  });

  it('spend survives a restart: rebuilt from the audit store', async () => {
    const first = await start(budgetKey(2, 'total'));
    const dataDir = first.dataDir;
    const client = first.client(KEY);
    expect([await statusOf(client), await statusOf(client)]).to.deep.equal(['200', '200']);
    await first.running.close();
    limits.forget();
    const second = await start(budgetKey(2, 'total'), {}, dataDir);
    try {
      expect(await statusOf(second.client(KEY))).to.equal('429 budget_exceeded');
    } finally {
      await second.close();
      limits.forget();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a budget per label value: each user gets its own', async () => {
    const gw = await limits.start({ [KEY]: { id: 'k-team' } }, { budget: { labels: { user: { amount_usd: CALL_USD, period: 'monthly' } } } }, { env: { TAGGING_HEADER_1: 'x-user', TAGGING_HEADER_1_PREFIX: 'user' } });
    const alice = gw.client(KEY).withOptions({ defaultHeaders: { 'x-user': 'alice' } });
    const bob = gw.client(KEY).withOptions({ defaultHeaders: { 'x-user': 'bob' } });
    expect(await statusOf(alice)).to.equal('200');
    await settled();
    expect(await statusOf(alice)).to.equal('429 budget_exceeded');
    expect(await statusOf(bob)).to.equal('200');
  });

  it('a model without a known price: refused by default, let through with unknown_price: allow', async () => {
    const unpriced = { ...CHAT, model: 'openai/gpt-unlisted-model' };
    const refusing = await start(budgetKey(5));
    expect(await statusOf(refusing.client(KEY), unpriced)).to.equal('403 model_not_priced');
    await refusing.close();
    limits.forget();
    const allowing = await start(budgetKey(5), { unknown_price: 'allow' });
    expect(await statusOf(allowing.client(KEY), unpriced)).to.equal('200');
  });
});
