// The ratelimit plugin in memory mode, through the openai SDK against the OpenAI mock (whose
// chat answer uses 21 tokens).
import { expect } from 'chai';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { slowChat, withLimitGateway } from '../limit-state/test-config.js';
import { awayFromMinuteEdge, call, CHAT, LIMIT_HEADERS, settled } from '../limit-state/test-calls.js';
import type { TestKey } from '../limit-state/test-keys.js';

const KEY = 'sk-test-ratelimit-key-0001';
/** The plugin's estimate of CHAT: its body's bytes / 3, plus max_tokens. */
const CHAT_ESTIMATE = Math.ceil(Buffer.byteLength(JSON.stringify(CHAT)) / 3) + 4;
const USED = 21;

type Limits = { rpm?: number; tpm?: number; concurrent?: number };

function limitedKey(limits: Limits): Record<string, TestKey> {
  return { [KEY]: { id: 'k-rl', rate_limit: { rpm: limits.rpm ?? null, tpm: limits.tpm ?? null, concurrent: limits.concurrent ?? null } } };
}

describe('ratelimit plugin (memory)', () => {
  const limits = withLimitGateway();
  const start = (keys: Record<string, TestKey>, ratelimit: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<TestGateway> =>
    limits.start(keys, { ratelimit }, { env });

  it('rpm: x-ratelimit-*-requests count down on JSON and stream answers, then 429 rate_limit_exceeded with retry-after', async () => {
    const client = (await start(limitedKey({ rpm: 3 }))).client(KEY);
    await awayFromMinuteEdge();
    const outcomes = [await call(client), await call(client, { stream: true }), await call(client), await call(client, { stream: true })];
    const requests = outcomes.map((o) => [o.status, o.code, o.headers['x-ratelimit-limit-requests'], o.headers['x-ratelimit-remaining-requests']]);
    expect(requests).to.deep.equal([
      [200, null, '3', '2'],
      [200, null, '3', '1'],
      [200, null, '3', '0'],
      [429, 'rate_limit_exceeded', '3', '0'],
    ]);
    // Three in this minute and two allowed: the next one fits once this window is the previous one and a third of it has slid out.
    const retryAfter = Number(outcomes[3]!.headers['retry-after']);
    expect(retryAfter).to.be.within(21, 81);
    expect(outcomes[0]!.headers['x-ratelimit-limit-tokens']).to.equal(null);
  });

  it('tpm: counted from the estimate, corrected by the real usage, refused once spent', async () => {
    const tpm = USED * 3;
    const client = (await start(limitedKey({ tpm }))).client(KEY);
    await awayFromMinuteEdge();
    const first = await call(client);
    await settled();
    const second = await call(client);
    await settled();
    const third = await call(client);
    await settled();
    const fourth = await call(client);
    expect([first, second, third].map((o) => [o.status, o.headers['x-ratelimit-limit-tokens'], o.headers['x-ratelimit-remaining-tokens']])).to.deep.equal([
      [200, String(tpm), String(tpm - CHAT_ESTIMATE)],
      [200, String(tpm), String(tpm - USED - CHAT_ESTIMATE)],
      [200, String(tpm), '0'],
    ]);
    expect([fourth.status, fourth.code, fourth.headers['x-ratelimit-remaining-tokens']]).to.deep.equal([429, 'rate_limit_exceeded', '0']);
    expect(Number(fourth.headers['retry-after'])).to.be.greaterThan(0);
  });

  it('concurrent: calls beyond the limit in flight are refused with retry-after 1, and a slot frees when a call ends', async () => {
    slowChat(limits.mock, 300);
    const client = (await start(limitedKey({ concurrent: 2 }))).client(KEY);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => call(client)));
    expect(outcomes.map((o) => `${o.status} ${o.code}`).sort()).to.deep.equal(['200 null', '200 null', '429 rate_limit_exceeded', '429 rate_limit_exceeded', '429 rate_limit_exceeded']);
    expect(outcomes.filter((o) => o.status === 429).map((o) => o.headers['retry-after'])).to.deep.equal(['1', '1', '1']);
    await settled();
    expect((await call(client)).status).to.equal(200);
  });

  it('limits per label value: each user has its own rpm', async () => {
    const client = (await start({ [KEY]: { id: 'k-plain' } }, { labels: { user: { rpm: 1 } } }, { TAGGING_HEADER_1: 'x-user', TAGGING_HEADER_1_PREFIX: 'user' })).client(KEY);
    const alice = client.withOptions({ defaultHeaders: { 'x-user': 'alice' } });
    const bob = client.withOptions({ defaultHeaders: { 'x-user': 'bob' } });
    expect([(await call(alice)).status, (await call(alice)).status, (await call(bob)).status]).to.deep.equal([200, 429, 200]);
  });

  it('a key without limits gets no x-ratelimit headers', async () => {
    const outcome = await call((await start({ [KEY]: { id: 'k-free' } })).client(KEY));
    expect(outcome).to.deep.equal({ status: 200, code: null, headers: Object.fromEntries(LIMIT_HEADERS.map((h) => [h, null])) });
  });
});
