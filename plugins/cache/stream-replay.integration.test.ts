// Streams stored as the client's events and replayed event for event, through the openai SDK:
// an OpenAI stream of 20 chunks (passed through), Anthropic and Gemini ones (translated), native
// and translated Responses streams; the usage chunk shown per request; a stream over the size cap
// not stored.
import { expect } from 'chai';
import { auditEntry } from '../../test/helpers/audit-entry.js';
import { AnthropicMock, ANTHROPIC_KEY, answers } from '../../test/helpers/mock-anthropic.js';
import { GEMINI_KEY, GeminiMock, nativeText } from '../../test/helpers/mock-gemini.js';
import { fixtureText } from '../../test/helpers/fixtures.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { sendSse, splitSse } from '../../test/helpers/mock-provider.js';
import { withOpenAIGateway } from '../../test/helpers/openai-gateway.js';
import { defaultPlugins, withPluginOptions } from '../../test/helpers/plugins.js';
import { sseData } from '../../test/helpers/sse.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import type { Usage } from '../../core/types/usage.js';
import { CONTENT_CHUNKS, rawStream, serveChunks, serveTwentyChunks } from './test-streams.js';

const MODEL = 'openai/gpt-4o-mini';
const CLAUDE = 'claude/claude-sonnet-4-20250514';
const GEMINI = 'gem/gemini-2.5-pro';
// Prices of their own under these instance names, so that a hit has a saved cost.
const PRICES = {
  [CLAUDE]: { pricing: { currency: 'USD', input_per_mtok: 3, output_per_mtok: 15 } },
  [GEMINI]: { pricing: { currency: 'USD', input_per_mtok: 1.25, output_per_mtok: 10 } },
};

type Audit = { usage: Usage | null; cache_hit: boolean; cost: { total_usd: string | null; saved_usd?: string | null }; response_body: unknown };

/** A unique question per call site, so no test sees another's entry. */
let asked = 0;
function messages(): Array<{ role: 'user'; content: string }> {
  return [{ role: 'user', content: `Count to twenty ${++asked} ${Date.now()}` }];
}

function chatCalls(mock: MockProvider): number {
  return mock.requests.filter((r) => r.path === '/v1/chat/completions').length;
}

function streamChat(gw: TestGateway, body: Record<string, unknown>) {
  return rawStream(gw.client().chat.completions.create({ model: MODEL, ...body, stream: true } as never));
}

/** The miss and the hit are audited with the same usage and response body (the stream folded); the hit costs 0 and saved what the miss cost. */
async function expectAuditedHit(gw: TestGateway, missId: string, hitId: string): Promise<void> {
  const miss = await auditEntry<Audit>(gw, missId);
  const hit = await auditEntry<Audit>(gw, hitId);
  expect(miss.usage).to.not.equal(null);
  expect(hit.usage).to.deep.equal(miss.usage);
  expect(miss.response_body).to.be.an('object');
  expect(hit.response_body).to.deep.equal(miss.response_body);
  expect([miss.cache_hit, hit.cache_hit, hit.cost.total_usd]).to.deep.equal([false, true, '0']);
  expect(miss.cost.total_usd).to.be.a('string');
  expect(hit.cost.saved_usd).to.equal(miss.cost.total_usd);
}

describe('cache plugin: streams replayed event for event @integration', () => {
  let claude: AnthropicMock;
  let gemini: GeminiMock;
  before(async () => {
    claude = await AnthropicMock.start();
    gemini = await GeminiMock.start();
  });
  after(async () => {
    await claude.close();
    await gemini.close();
  });

  const fit = withOpenAIGateway((mock) => {
    serveTwentyChunks(mock);
    return {
      providers: { claude: { type: 'anthropic', base_url: claude.url, api_key: ANTHROPIC_KEY }, gem: { type: 'gemini', base_url: gemini.url, api_key: GEMINI_KEY } },
      plugins: [...withPluginOptions('router', { model_overrides: PRICES }), { name: 'cache', options: {} }],
    };
  });

  it('replays a 20-chunk stream event for event: the same data lines and usage, audited as a hit', async () => {
    const body = { messages: messages(), stream_options: { include_usage: true } };
    const miss = await streamChat(fit.gw, body);
    const hit = await streamChat(fit.gw, body);
    expect([miss.cache, hit.cache]).to.deep.equal(['MISS', 'HIT']);
    // 20 content chunks, the finish chunk, the usage chunk, [DONE].
    expect(miss.data).to.have.length(CONTENT_CHUNKS + 3);
    expect(hit.data).to.deep.equal(miss.data);
    expect(hit.text).to.equal(miss.text);
    expect(chatCalls(fit.mock)).to.equal(1);
    await expectAuditedHit(fit.gw, miss.id, hit.id);
  });

  it('serves one stored stream with the usage chunk to a client that asks for it, and without to one that does not', async () => {
    const asked = messages();
    const quiet = await streamChat(fit.gw, { messages: asked });
    const told = await streamChat(fit.gw, { messages: asked, stream_options: { include_usage: true } });
    const quietAgain = await streamChat(fit.gw, { messages: asked, stream_options: { include_usage: false } });
    expect([quiet.cache, told.cache, quietAgain.cache]).to.deep.equal(['MISS', 'HIT', 'HIT']);
    const usageChunk = told.data.at(-2)!;
    expect((JSON.parse(usageChunk) as { usage: { total_tokens: number } }).usage.total_tokens).to.equal(37);
    expect(told.data).to.deep.equal([...quiet.data.slice(0, -1), usageChunk, '[DONE]']);
    expect(quietAgain.text).to.equal(quiet.text);
    expect(chatCalls(fit.mock)).to.equal(1);
  });

  it('answers concurrent identical stream misses from one provider call, each with the same events', async () => {
    const body = { messages: messages(), stream_options: { include_usage: true } };
    const streams = await Promise.all(Array.from({ length: 4 }, () => streamChat(fit.gw, body)));
    expect(streams.map((s) => s.cache).sort()).to.deep.equal(['HIT', 'HIT', 'HIT', 'MISS']);
    for (const s of streams) expect(s.text).to.equal(streams[0]!.text);
    expect(chatCalls(fit.mock)).to.equal(1);
  });

  it('keys a stream apart from a JSON answer: each shape misses once, then hits as it was sent', async () => {
    const asked = messages();
    const json = async () => {
      const { data, response } = await fit.gw.client().chat.completions.create({ model: MODEL, messages: asked }).withResponse();
      return { cache: response.headers.get('x-cache'), content: data.choices[0]!.message.content };
    };
    const firstJson = await json();
    const firstStream = await streamChat(fit.gw, { messages: asked });
    const [againJson, againStream] = [await json(), await streamChat(fit.gw, { messages: asked })];
    expect([firstJson.cache, firstStream.cache, againJson.cache, againStream.cache]).to.deep.equal(['MISS', 'MISS', 'HIT', 'HIT']);
    expect(againJson.content).to.equal('Hello, World!');
    expect(againStream.data).to.deep.equal(firstStream.data);
    expect(chatCalls(fit.mock)).to.equal(2);
  });

  // Translated streams: each event made by the gateway from the provider's own, spaced out so that each is translated on its own.
  const translated = [
    { provider: 'Anthropic', model: CLAUDE, script: () => claude.answerWith(answers.stream('recorded/anthropic/messages_stream.txt', 2)), calls: () => claude.provider.requests.filter((r) => r.path === '/v1/messages').length },
    { provider: 'Gemini', model: GEMINI, script: () => gemini.answerNext({ sse: nativeText('stream-thinking.txt'), gapMs: 2 }), calls: () => gemini.requests.filter((r) => r.method === 'POST').length },
  ];
  for (const { provider, model, script, calls } of translated) {
    it(`replays a stream translated from ${provider}'s event for event, with its usage`, async () => {
      claude.reset();
      gemini.reset();
      script();
      const body = { model, messages: messages(), stream: true, stream_options: { include_usage: true } };
      const miss = await rawStream(fit.gw.client().chat.completions.create(body as never));
      const hit = await rawStream(fit.gw.client().chat.completions.create(body as never));
      expect([miss.cache, hit.cache]).to.deep.equal(['MISS', 'HIT']);
      expect(miss.data.length).to.be.greaterThan(4);
      expect(hit.data).to.deep.equal(miss.data);
      expect(calls()).to.equal(1);
      await expectAuditedHit(fit.gw, miss.id, hit.id);
    });
  }

  it('replays a Responses stream the gateway made from an Anthropic chat stream, ids and all', async () => {
    claude.reset();
    claude.answerWith(answers.stream('recorded/anthropic/messages_stream.txt', 2));
    const input = messages()[0]!.content;
    const call = () => rawStream(fit.gw.client().responses.create({ model: CLAUDE, input, store: false, stream: true }));
    const miss = await call();
    const hit = await call();
    expect([miss.cache, hit.cache]).to.deep.equal(['MISS', 'HIT']);
    expect(miss.text).to.include('event: response.completed\n');
    expect(hit.text).to.equal(miss.text);
    expect(claude.provider.requests.filter((r) => r.path === '/v1/messages')).to.have.length(1);
  });

  it('replays a native Responses stream event for event', async () => {
    const input = messages()[0]!.content;
    const call = () => rawStream(fit.gw.client().responses.create({ model: MODEL, input, store: false, stream: true }));
    const miss = await call();
    const hit = await call();
    expect([miss.cache, hit.cache]).to.deep.equal(['MISS', 'HIT']);
    expect(miss.text).to.match(/^event: response\.created\n/);
    expect(miss.text).to.include('event: response.completed\n');
    expect(hit.text).to.equal(miss.text);
    expect(fit.mock.requests.filter((r) => r.path === '/v1/responses')).to.have.length(1);
    await expectAuditedHit(fit.gw, miss.id, hit.id);
  });
});

describe('cache plugin: a long stream @integration', () => {
  // 4,000 content chunks of about 300 bytes each: 1.2 MB of events.
  const chunks = 4000;
  const fit = withOpenAIGateway((mock) => {
    serveChunks(mock, chunks, 0);
    return { plugins: [...defaultPlugins(), { name: 'cache', options: { max_entry_bytes: 4 * 1024 * 1024 } }] };
  });

  it('is replayed whole, event for event, with its usage chunk to a client that asks for it and without to one that does not', async () => {
    const asked = messages();
    const quiet = await streamChat(fit.gw, { messages: asked });
    const told = await streamChat(fit.gw, { messages: asked, stream_options: { include_usage: true } });
    const quietAgain = await streamChat(fit.gw, { messages: asked });
    expect([quiet.cache, told.cache, quietAgain.cache]).to.deep.equal(['MISS', 'HIT', 'HIT']);
    expect(quiet.text.length).to.be.greaterThan(1_000_000);
    // The content chunks, the finish chunk, [DONE]; and the usage chunk before [DONE] for the client that asked.
    expect(quiet.data).to.have.length(chunks + 2);
    expect(told.data).to.deep.equal([...quiet.data.slice(0, -1), told.data.at(-2), '[DONE]']);
    expect((JSON.parse(told.data.at(-2)!) as { choices: unknown[]; usage: { total_tokens: number } })).to.deep.include({ choices: [] });
    expect(quietAgain.text).to.equal(quiet.text);
    expect(chatCalls(fit.mock)).to.equal(1);
    await expectAuditedHit(fit.gw, quiet.id, told.id);
  });
});

describe('cache plugin: a stream over the size cap @integration', () => {
  // The 20-chunk stream is about 5 KB; the recorded JSON answer about 1 KB.
  const fit = withOpenAIGateway((mock) => {
    serveTwentyChunks(mock);
    return { plugins: [...defaultPlugins(), { name: 'cache', options: { max_entry_bytes: 2000 } }] };
  });

  it('is not stored (MISS twice), while an answer under the cap is', async () => {
    const asked = messages();
    const first = await streamChat(fit.gw, { messages: asked });
    const second = await streamChat(fit.gw, { messages: asked });
    expect([first.cache, second.cache]).to.deep.equal(['MISS', 'MISS']);
    expect(second.data).to.have.length(CONTENT_CHUNKS + 2);
    const json = async () => (await fit.gw.client().chat.completions.create({ model: MODEL, messages: asked }).withResponse()).response.headers.get('x-cache');
    expect([await json(), await json()]).to.deep.equal(['MISS', 'HIT']);
    expect(chatCalls(fit.mock)).to.equal(3);
  });
});

describe('a Responses stream that ended in response.failed @integration', () => {
  // The recorded stream's first two events, then the failure OpenAI streams when the model fails.
  const fit = withOpenAIGateway((mock) => {
    const events = splitSse(fixtureText('recorded/openai/responses_stream.txt')).slice(0, 2);
    const { response } = JSON.parse(sseData(events[0]!)[0]!) as { response: Record<string, unknown> };
    const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 };
    const error = { code: 'server_error', message: 'The model failed to generate a response.' };
    const failed = { type: 'response.failed', sequence_number: 2, response: { ...response, status: 'failed', error, usage } };
    events.push(`event: response.failed\ndata: ${JSON.stringify(failed)}\n\n`);
    mock.on('POST', '/v1/responses', (_req, res) => sendSse(res, events));
    return { plugins: [...defaultPlugins(), { name: 'cache', options: {} }] };
  });

  it('is recorded as the provider\'s failure and not stored: each call is a miss the provider answers, not a replay of the failure', async () => {
    const input = messages()[0]!.content;
    const call = () => rawStream(fit.gw.client().responses.create({ model: MODEL, input, store: false, stream: true }));
    const first = await call();
    const second = await call();
    expect([first.cache, second.cache]).to.deep.equal(['MISS', 'MISS']);
    expect(first.text).to.include('event: response.failed\n');
    expect(second.text).to.equal(first.text);
    expect(fit.mock.requests.filter((r) => r.path === '/v1/responses')).to.have.length(2);
    // Audited as the provider's failure, though the client got the stream with 200 as it was sent.
    const entry = await auditEntry<{ status: number; error: Record<string, unknown> | null; input_tokens: number; cost_usd: string; cost_source: string }>(fit.gw, first.id);
    expect([entry.status, entry.error]).to.deep.equal([200, { type: 'provider_error', code: 'server_error', message: 'The model failed to generate a response.', status: 502, provider: 'openai' }]);
    // Metered with the usage the failed response reported: 12 input tokens of gpt-4o-mini at $0.15 a million.
    expect([entry.input_tokens, entry.cost_usd, entry.cost_source]).to.deep.equal([12, '0.0000018', 'computed']);
    const health = (await (await fit.gw.fetch('/admin/providers')).json()) as { data: Array<{ name: string; requests: number; errors: number }> };
    expect(health.data.find((p) => p.name === 'openai')).to.deep.include({ requests: 2, errors: 2 });
  });
});
