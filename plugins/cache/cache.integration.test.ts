import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { auditEntry } from '../../test/helpers/audit-entry.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { sendJson, sendSse } from '../../test/helpers/mock-provider.js';
import { withOpenAIGateway } from '../../test/helpers/openai-gateway.js';
import { defaultPlugins, withPluginOptions } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';

const MODEL = 'openai/gpt-4o-mini';

function withCache(options: Record<string, unknown> = {}): Record<string, unknown> {
  return { plugins: [...defaultPlugins(), { name: 'cache', options }] };
}

/** A chat completion saying `content`, with usage. */
function answerOf(content: string): Record<string, unknown> {
  return { id: 'chatcmpl-sized', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 600, total_tokens: 609 } };
}

function calls(mock: MockProvider, path: string): number {
  return mock.requests.filter((r) => r.path === path).length;
}

/** A unique question per test, so no test sees another's entry. */
let asked = 0;
function messages(): Array<{ role: 'user'; content: string }> {
  return [{ role: 'user', content: `Say hello ${++asked} ${Date.now()}` }];
}

async function chat(gw: TestGateway, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const { data, response } = await gw.client().chat.completions.create({ model: MODEL, ...body } as never, { headers }).withResponse();
  return { data: data as unknown as { choices: Array<{ message: { content: string } }>; usage: { total_tokens: number } }, cache: response.headers.get('x-cache'), id: response.headers.get('x-request-id')! };
}

describe('cache plugin @integration', () => {
  describe('memory backend', () => {
    const fit = withOpenAIGateway(() => withCache({ ttl_seconds: 1 }));
    const chatCalls = (): number => calls(fit.mock, '/v1/chat/completions');

    it('answers a repeated chat call from the cache: MISS then HIT, one provider call, key order irrelevant', async () => {
      const asked = messages();
      const first = await chat(fit.gw, { messages: asked, temperature: 0 });
      const again = await chat(fit.gw, { temperature: 0, messages: asked });
      expect(first.cache).to.equal('MISS');
      expect(again.cache).to.equal('HIT');
      expect(again.data).to.deep.equal(first.data);
      expect(chatCalls()).to.equal(1);
    });

    it('keeps each API key\'s entries apart (scope: key): the same bytes from another key are a miss', async () => {
      const secretOf = async (name: string): Promise<string> => {
        const created = await fit.gw.fetch('/admin/keys', { method: 'POST', body: JSON.stringify({ name }) });
        return ((await created.json()) as { secret: string }).secret;
      };
      const [alice, bob] = [await secretOf('cache alice'), await secretOf('cache bob')];
      const body = { model: MODEL, messages: messages() };
      const ask = async (secret: string) => (await fit.gw.client(secret).chat.completions.create(body).withResponse()).response.headers.get('x-cache');
      expect([await ask(alice), await ask(bob), await ask(alice), await ask(bob)]).to.deep.equal(['MISS', 'MISS', 'HIT', 'HIT']);
      expect(chatCalls()).to.equal(2);
    });

    it('audits a hit with cost 0, the saved cost and cache_hit', async () => {
      const asked = messages();
      const first = await chat(fit.gw, { messages: asked });
      const hit = await chat(fit.gw, { messages: asked });
      type Audit = { cache_hit: boolean; cost_source: string; cost: { total_usd: string; saved_usd: string }; attempts: Array<{ provider: string; status: number }> };
      const missEntry = await auditEntry<Audit>(fit.gw, first.id);
      const hitEntry = await auditEntry<Audit>(fit.gw, hit.id);
      expect(missEntry.cache_hit).to.equal(false);
      // docs/api.md: one attempt per provider try, none for a cache hit.
      expect([missEntry.attempts.map((a) => [a.provider, a.status]), hitEntry.attempts]).to.deep.equal([[['openai', 200]], []]);
      expect(hitEntry).to.deep.include({ cache_hit: true, cost_source: 'cache' });
      expect(hitEntry.cost.total_usd).to.equal('0');
      expect(hitEntry.cost.saved_usd).to.equal(missEntry.cost.total_usd);
    });

    it('shows hits in usage by key and by label: each a call of cost 0, counted in cache_hits', async () => {
      const created = await fit.gw.fetch('/admin/keys', { method: 'POST', body: JSON.stringify({ name: 'cache usage', labels: { team: 'cache-usage' } }) });
      const key = (await created.json()) as { id: string; secret: string };
      const body = { model: MODEL, messages: messages() };
      for (let i = 0; i < 3; i++) await fit.gw.client(key.secret).chat.completions.create(body);
      type Usage = { data: Array<{ value: string | null; requests: number; cost_usd: string; cache_hits: number }> };
      const usage = async (groupBy: string, value: string) => ((await (await fit.gw.fetch(`/admin/usage?group_by=${groupBy}`)).json()) as Usage).data.find((r) => r.value === value);
      const byKey = (await usage('key', key.id))!;
      expect([byKey.requests, byKey.cache_hits]).to.deep.equal([3, 2]);
      // The three calls cost what the one provider call did.
      expect(await usage('label:team', 'cache-usage')).to.deep.include({ requests: 3, cache_hits: 2, cost_usd: byKey.cost_usd });
    });

    it('says nothing on a request refused before the cache looked at it (a bad body, an unknown model)', async () => {
      const post = (body: unknown) => fit.gw.fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const bad = await post({ model: MODEL, messages: 'not a list' });
      const unknown = await post({ model: 'no-such-provider/model', messages: messages() });
      expect([bad.status, bad.headers.get('x-cache'), unknown.status, unknown.headers.get('x-cache')]).to.deep.equal([400, null, 404, null]);
    });

    it('bypasses the cache on Cache-Control: no-store and no-cache', async () => {
      const asked = messages();
      await chat(fit.gw, { messages: asked });
      const noStore = await chat(fit.gw, { messages: asked }, { 'cache-control': 'no-store' });
      const noCache = await chat(fit.gw, { messages: asked }, { 'cache-control': 'no-cache' });
      expect([noStore.cache, noCache.cache]).to.deep.equal(['MISS', 'MISS']);
      expect(chatCalls()).to.equal(3);
    });

    it('expires an entry after its TTL', async () => {
      const asked = messages();
      await chat(fit.gw, { messages: asked });
      expect((await chat(fit.gw, { messages: asked })).cache).to.equal('HIT');
      await sleep(1100);
      expect((await chat(fit.gw, { messages: asked })).cache).to.equal('MISS');
      expect(chatCalls()).to.equal(2);
    });

    it('caches embeddings, and responses only when they are not stored on the provider', async () => {
      const input = `vector ${Date.now()}`;
      for (let i = 0; i < 2; i++) await fit.gw.client().embeddings.create({ model: 'openai/text-embedding-3-small', input });
      expect(calls(fit.mock, '/v1/embeddings')).to.equal(1);

      const ask = async (store: boolean) => (await fit.gw.client().responses.create({ model: MODEL, input: `hi ${asked}`, store }).withResponse()).response.headers.get('x-cache');
      expect([await ask(false), await ask(false)]).to.deep.equal(['MISS', 'HIT']);
      expect([await ask(true), await ask(true)]).to.deep.equal(['MISS', 'MISS']);
      expect(calls(fit.mock, '/v1/responses')).to.equal(3);
    });

    it('does not store a failed answer', async () => {
      const asked = messages();
      fit.mock.on('POST', '/v1/chat/completions', (_req, res) => {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom","type":"server_error"}}');
      });
      const failed = await fit.gw.fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: asked }) });
      const again = await fit.gw.fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: MODEL, messages: asked }) });
      expect([failed.status, again.status]).to.deep.equal([502, 502]);
      expect([failed.headers.get('x-cache'), again.headers.get('x-cache')]).to.deep.equal(['MISS', 'MISS']);
      expect(chatCalls()).to.equal(2);
    });
  });

  describe('an answer without usage', () => {
    // A server that reports no usage (an OpenAI-compatible one that ignores include_usage): the miss's cost is unknown.
    const fit = withOpenAIGateway((mock) => {
      mock.on('POST', '/v1/chat/completions', async (req, res) => {
        const { usage: _none, ...answer } = answerOf('no usage here');
        if ((req.json as { stream?: boolean }).stream !== true) return sendJson(res, 200, answer);
        const chunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: 'no usage here' }, finish_reason: 'stop' }] };
        await sendSse(res, [`data: ${JSON.stringify(chunk)}\n\n`, 'data: [DONE]\n\n']);
      });
      return withCache();
    });

    it('audits its hit as a call that cost 0 (cost_source cache), its saving unknown, not as one of unknown cost', async () => {
      type Audit = { cache_hit: boolean; cost_source: string; cost: Record<string, unknown> };
      for (const stream of [false, true]) {
        const body = JSON.stringify({ model: MODEL, messages: messages(), stream });
        const ask = () => fit.gw.fetch('/v1/chat/completions', { method: 'POST', body });
        const miss = await ask();
        await miss.text();
        const hit = await ask();
        await hit.text();
        expect([miss.headers.get('x-cache'), hit.headers.get('x-cache')]).to.deep.equal(['MISS', 'HIT']);
        const missEntry = await auditEntry<Audit>(fit.gw, miss.headers.get('x-request-id')!);
        const hitEntry = await auditEntry<Audit>(fit.gw, hit.headers.get('x-request-id')!);
        expect([missEntry.cache_hit, missEntry.cost_source], `stream: ${stream}`).to.deep.equal([false, 'unknown']);
        expect([hitEntry.cache_hit, hitEntry.cost_source, hitEntry.cost], `stream: ${stream}`).to.deep.equal([true, 'cache', { total_usd: '0', source: 'cache', pico_usd: '0', lines: [], saved_usd: null }]);
      }
      expect(calls(fit.mock, '/v1/chat/completions')).to.equal(2);
    });
  });

  describe('a virtual model whose second target answered', () => {
    // `resilient` tries `openai` (the gateway's mock, made to fail) first, then `second`, whose
    // price of its own tells a saving at its price from one at the first target's.
    let second: MockProvider;
    before(async () => {
      second = await startOpenAIMock();
    });
    after(() => second.close());
    const SECOND = 'second/gpt-4o-mini';
    const fit = withOpenAIGateway((mock) => {
      mock.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 500, { error: { message: 'boom', type: 'server_error' } }));
      const router = { virtual_models: { resilient: { targets: [{ model: MODEL }, { model: SECOND }] } }, model_overrides: { [SECOND]: { pricing: { currency: 'USD', input_per_mtok: 7, output_per_mtok: 70 } } } };
      return {
        providers: { second: { type: 'openai', base_url: `${second.url}/v1`, api_key: 'sk-second' } },
        plugins: [...withPluginOptions('router', router), { name: 'failover', options: { retry: { max_retries: 0 } } }, { name: 'cache', options: {} }],
      };
    });

    it('names the target that answered on a hit too: headers, audit entry and the price of what it saved', async () => {
      const asked = messages();
      const ask = async () => {
        const { response } = await fit.gw.client().chat.completions.create({ model: 'resilient', messages: asked }).withResponse();
        return { cache: response.headers.get('x-cache'), provider: response.headers.get('x-gateway-provider'), model: response.headers.get('x-gateway-model'), id: response.headers.get('x-request-id')! };
      };
      const miss = await ask();
      const hit = await ask();
      expect([miss, hit].map(({ cache, provider, model }) => [cache, provider, model])).to.deep.equal([
        ['MISS', 'second', 'gpt-4o-mini'],
        ['HIT', 'second', 'gpt-4o-mini'],
      ]);
      expect([calls(fit.mock, '/v1/chat/completions'), calls(second, '/v1/chat/completions')]).to.deep.equal([1, 1]);
      type Audit = { provider: string; provider_model: string; resolved_model: string; cache_hit: boolean; cost: { total_usd: string; saved_usd?: string } };
      const missEntry = await auditEntry<Audit>(fit.gw, miss.id);
      const hitEntry = await auditEntry<Audit>(fit.gw, hit.id);
      const named = (e: Audit) => [e.provider, e.provider_model, e.resolved_model, e.cache_hit];
      expect([named(missEntry), named(hitEntry)]).to.deep.equal([
        ['second', 'gpt-4o-mini', SECOND, false],
        ['second', 'gpt-4o-mini', SECOND, true],
      ]);
      // The recorded answer's 17 + 4 tokens at $7 and $70 per million: second's price, not gpt-4o-mini's.
      expect([missEntry.cost.total_usd, hitEntry.cost.total_usd, hitEntry.cost.saved_usd]).to.deep.equal(['0.000399', '0', '0.000399']);
    });
  });

  describe('max_entry_bytes', () => {
    // 600 characters of content: about 900 bytes of entry in ASCII, about 2,100 in '€' (3 bytes each).
    const fit = withOpenAIGateway(() => withCache({ max_entry_bytes: 1500 }));

    it('counts an entry in bytes: an answer of many-byte characters over the cap is not stored, the same length in ASCII is', async () => {
      for (const [letter, expected] of [['a', ['MISS', 'HIT']], ['€', ['MISS', 'MISS']]] as const) {
        fit.mock.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 200, answerOf(letter.repeat(600))));
        const asked = messages();
        expect([(await chat(fit.gw, { messages: asked })).cache, (await chat(fit.gw, { messages: asked })).cache], letter).to.deep.equal(expected);
      }
      expect(calls(fit.mock, '/v1/chat/completions')).to.equal(3);
    });
  });

  describe('coalescing', () => {
    let mock: MockProvider;
    let gw: TestGateway;
    before(async () => {
      mock = await startOpenAIMock();
      gw = await startTestGateway({ config: withCache(), env: openAIEnv(mock) });
    });
    after(async () => {
      await gw.close();
      await mock.close();
    });

    it('makes one provider call for 10 concurrent identical misses', async () => {
      const real = (await import('../../test/helpers/fixtures.js')).fixtureJson('recorded/openai/chat_completion.json');
      mock.on('POST', '/v1/chat/completions', async (_req, res) => {
        await sleep(200);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(real));
      });
      const asked = messages();
      const answers = await Promise.all(Array.from({ length: 10 }, () => chat(gw, { messages: asked })));
      expect(calls(mock, '/v1/chat/completions')).to.equal(1);
      expect(answers.map((a) => a.cache).sort()).to.deep.equal(['HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'MISS']);
      expect(new Set(answers.map((a) => a.data.choices[0]!.message.content))).to.deep.equal(new Set(['Hello, World!']));
    });

    it('ends the call of a waiting request whose client leaves at once, not when the first call is done', async () => {
      const real = (await import('../../test/helpers/fixtures.js')).fixtureJson('recorded/openai/chat_completion.json');
      mock.on('POST', '/v1/chat/completions', async (_req, res) => {
        await sleep(1500);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(real));
      });
      const body = JSON.stringify({ model: MODEL, messages: messages() });
      const first = gw.fetch('/v1/chat/completions', { method: 'POST', body });
      await sleep(100);
      const gone = new AbortController();
      const waiting = gw.fetch('/v1/chat/completions', { method: 'POST', body, signal: gone.signal }).catch(() => 'aborted');
      await sleep(100);
      gone.abort();
      expect(await waiting).to.equal('aborted');
      // The leaver's call is over (audited as 499) while the first call still waits for the provider.
      await sleep(200);
      const left = (await (await gw.fetch('/admin/audit?status=499')).json()) as { data: unknown[] };
      expect(left.data).to.have.length(1);
      expect((await first).headers.get('x-cache')).to.equal('MISS');
    });
  });
});
