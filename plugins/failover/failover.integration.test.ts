// Failover through real HTTP: a gateway in front of two OpenAI mocks (`a`, `b`), an Anthropic
// mock (`claude`) and a closed port (`dead`), called with the openai SDK. Each test starts its
// own gateway so that one test's breaker state never reaches another.
import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { APIError } from 'openai';
import type { Attempt } from '../../core/context.js';
import { auditEntry } from '../../test/helpers/audit-entry.js';
import { sdkError } from '../../test/helpers/errors.js';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import { ANTHROPIC_KEY, AnthropicMock } from '../../test/helpers/mock-anthropic.js';
import { startOpenAIMock } from '../../test/helpers/mock-openai.js';
import { sendJson } from '../../test/helpers/mock-provider.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { closedPort, waitFor } from '../../test/helpers/net.js';
import { parseSamples, samplesOf } from '../../test/helpers/prometheus-text.js';
import { withPluginOptions } from '../../test/helpers/plugins.js';
import { sseData } from '../../test/helpers/sse.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];
const CHAT = '/v1/chat/completions';

const VIRTUAL_MODELS = {
  chain: { targets: [{ model: 'a/gpt-4o-mini' }, { model: 'b/gpt-4o-mini' }] },
  cross: { targets: [{ model: 'a/gpt-4o-mini' }, { model: 'claude/claude-sonnet-4-20250514' }] },
  'claude-first': { targets: [{ model: 'claude/claude-sonnet-4-20250514' }, { model: 'a/text-embedding-3-small' }] },
  'claude-only': { targets: [{ model: 'claude/claude-sonnet-4-20250514' }, { model: 'claude/claude-haiku-4-5' }] },
  'dead-first': { targets: [{ model: 'dead/gpt-4o-mini' }, { model: 'a/gpt-4o-mini' }] },
  'slow-last': { targets: [{ model: 'dead/gpt-4o-mini' }, { model: 'a/gpt-4o-mini' }] },
  split: { strategy: 'weighted', targets: [{ model: 'a/gpt-4o-mini', weight: 3 }, { model: 'b/gpt-4o-mini', weight: 1 }] },
  fastest: { strategy: 'lowest_latency', targets: [{ model: 'a/gpt-4o-mini' }, { model: 'b/gpt-4o-mini' }] },
};

// The recorded claude model is not in the catalog: a price of its own, unlike gpt-4o-mini's.
const CLAUDE_PRICE = { 'claude/claude-sonnet-4-20250514': { pricing: { currency: 'USD', input_per_mtok: 3, output_per_mtok: 15 } } };

const FAILOVER = {
  retry: { max_retries: 1, backoff_base_ms: 10, backoff_max_ms: 50, retry_after_cap_ms: 1500 },
  breaker: { failure_threshold: 2, cooldown_ms: 400 },
};

const serverError = (_req: unknown, res: ServerResponse): void => sendJson(res, 500, { error: { message: 'boom', type: 'server_error', code: null } });

describe('failover and virtual models @integration', () => {
  let a: MockProvider;
  let b: MockProvider;
  let claude: AnthropicMock;
  let deadPort: number;
  let gw: TestGateway;

  before(async () => {
    claude = await AnthropicMock.start();
    deadPort = await closedPort();
  });
  after(async () => {
    await claude.close();
  });
  beforeEach(async () => {
    a = await startOpenAIMock();
    b = await startOpenAIMock();
    gw = await startTestGateway({
      config: {
        upstream: { first_byte_timeout_ms: 300 },
        providers: {
          a: { type: 'openai', base_url: `${a.url}/v1`, api_key: 'sk-a' },
          b: { type: 'openai', base_url: `${b.url}/v1`, api_key: 'sk-b' },
          dead: { type: 'openai', base_url: `http://127.0.0.1:${deadPort}/v1`, api_key: 'sk-dead' },
          claude: { type: 'anthropic', base_url: claude.url, api_key: ANTHROPIC_KEY },
        },
        plugins: [...withPluginOptions('router', { virtual_models: VIRTUAL_MODELS, model_overrides: CLAUDE_PRICE }), { name: 'failover', options: FAILOVER }, 'metrics'],
      },
    });
  });
  afterEach(async () => {
    await gw.close();
    await a.close();
    await b.close();
    claude.reset();
  });

  const chatCalls = (mock: MockProvider): number => mock.requests.filter((r) => r.path === CHAT).length;
  const attemptsOf = async (requestId: string | null): Promise<Array<[string, number, string | null]>> => {
    const entry = await auditEntry<{ attempts: Attempt[] }>(gw, requestId!);
    return entry.attempts.map((t) => [t.provider, t.status, t.error]);
  };
  const ask = (model: string) => gw.client().chat.completions.create({ model, messages: MESSAGES }).withResponse();

  it('lists a virtual model with its first target metadata and price', async () => {
    const models = (await gw.client().models.list()).data as unknown as Array<{ id: string; metadata: Record<string, unknown> }>;
    const chain = models.find((m) => m.id === 'chain')!;
    const first = models.find((m) => m.id === 'a/gpt-4o-mini')!;
    expect(chain.metadata['pricing']).to.deep.equal(first.metadata['pricing']);
    expect(chain.metadata['pricing']).to.not.equal(null);
    expect([chain.metadata['virtual'], chain.metadata['targets'], chain.metadata['strategy']]).to.deep.equal([true, ['a/gpt-4o-mini', 'b/gpt-4o-mini'], 'failover']);
  });

  it('answers from the second target after the first answers 500 (retried once)', async () => {
    a.on('POST', CHAT, serverError);
    const { data, response } = await ask('chain');
    expect(data.choices[0]!.message.content).to.equal('Hello, World!');
    expect([response.headers.get('x-gateway-provider'), response.headers.get('x-gateway-model')]).to.deep.equal(['b', 'gpt-4o-mini']);
    expect(await attemptsOf(response.headers.get('x-request-id'))).to.deep.equal([
      ['a', 502, 'boom'],
      ['a', 502, 'boom'],
      ['b', 200, null],
    ]);
    expect([chatCalls(a), chatCalls(b)]).to.deep.equal([2, 1]);
  });

  it("waits a 429's retry-after within the cap and tries the same target again", async () => {
    let calls = 0;
    a.on('POST', CHAT, (req, res) => {
      if (++calls > 1) return sendJson(res, 200, chatAnswer('second'));
      res.setHeader('retry-after', '1');
      sendJson(res, 429, { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    });
    const started = performance.now();
    const { data, response } = await ask('a/gpt-4o-mini');
    expect(performance.now() - started).to.be.at.least(1000);
    expect(data.choices[0]!.message.content).to.equal('second');
    expect(await attemptsOf(response.headers.get('x-request-id'))).to.deep.equal([
      ['a', 429, 'slow down'],
      ['a', 200, null],
    ]);
  });

  it('moves on to the next target at once when retry-after is past the cap', async () => {
    a.on('POST', CHAT, (_req, res) => {
      res.setHeader('retry-after', '30');
      sendJson(res, 429, { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    });
    const started = performance.now();
    const { response } = await ask('chain');
    expect(performance.now() - started).to.be.below(1000);
    expect(response.headers.get('x-gateway-provider')).to.equal('b');
    expect([chatCalls(a), chatCalls(b)]).to.deep.equal([1, 1]);
  });

  it('never retries a 400 caused by the request', async () => {
    a.on('POST', CHAT, (_req, res) => sendJson(res, 400, { error: { message: 'bad temperature', type: 'invalid_request_error', code: null, param: 'temperature' } }));
    const err = await sdkError(ask('chain'));
    expect([err.status, err.message, chatCalls(a), chatCalls(b)]).to.deep.equal([400, '400 bad temperature', 1, 0]);
  });

  it('never retries nor fails over a stream request answered with JSON it cannot stream (502 stream_expected): the provider billed it once, and it is metered once', async () => {
    const recorded = fixtureJson<{ output: unknown[] }>('recorded/openai/responses.json');
    // A built-in tool's call has no exact stream form (docs/api.md); `a` answers so to every call.
    a.on('POST', '/v1/responses', (_req, res) => sendJson(res, 200, { ...recorded, output: [{ id: 'ws_1', type: 'web_search_call', status: 'completed' }, ...recorded.output] }));
    const res = await gw.fetch('/v1/responses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'chain', input: 'hi', stream: true }) });
    const message = "provider 'a' answered a stream request with a JSON body that cannot be replayed as a stream exactly";
    expect([res.status, await res.text()]).to.deep.equal([502, JSON.stringify({ error: { message, type: 'provider_error', code: 'stream_expected', param: null, provider: 'a' } })]);
    const calls = (mock: MockProvider): number => mock.requests.filter((r) => r.path === '/v1/responses').length;
    expect([calls(a), calls(b)]).to.deep.equal([1, 0]);
    const entry = await auditEntry<{ input_tokens: number; output_tokens: number; attempts: Attempt[] }>(gw, res.headers.get('x-request-id')!);
    expect([entry.input_tokens, entry.output_tokens, entry.attempts.map((t) => [t.provider, t.status, t.error])]).to.deep.equal([17, 5, [['a', 502, message]]]);
  });

  it('passes over a target whose provider cannot do the operation (embeddings on Anthropic): not tried, no attempt of it', async () => {
    const { data, response } = await gw.client().embeddings.create({ model: 'claude-first', input: 'hi' }).withResponse();
    expect(data.data[0]!.embedding.length).to.be.greaterThan(0);
    expect([response.headers.get('x-gateway-provider'), response.headers.get('x-gateway-model')]).to.deep.equal(['a', 'text-embedding-3-small']);
    expect(await attemptsOf(response.headers.get('x-request-id'))).to.deep.equal([['a', 200, null]]);
  });

  it("answers the first target's 501 when no target of a virtual model can do the operation", async () => {
    const err = await sdkError(gw.client().embeddings.create({ model: 'claude-only', input: 'hi' }));
    expect([err.status, (err.error as { code: string; provider?: string }).code, err.message]).to.deep.equal([501, 'unsupported_operation', "501 provider 'claude' does not support embeddings"]);
  });

  it('fails over past a refused connection', async () => {
    const { response } = await ask('dead-first');
    expect(response.headers.get('x-gateway-provider')).to.equal('a');
    const attempts = await attemptsOf(response.headers.get('x-request-id'));
    expect(attempts.map(([p, s]) => [p, s])).to.deep.equal([
      ['dead', 502],
      ['dead', 502],
      ['a', 200],
    ]);
  });

  it('answers 504 naming the last provider when every target failed and the last timed out', async () => {
    a.on('POST', CHAT, () => new Promise(() => undefined));
    const err = await sdkError(ask('slow-last'));
    expect(err.status).to.equal(504);
    expect(err.error).to.deep.include({ type: 'provider_error', provider: 'a', code: 'provider_timeout' });
  });

  it('answers 502 provider_error naming the last provider when every target failed', async () => {
    a.on('POST', CHAT, serverError);
    b.on('POST', CHAT, serverError);
    const err = await sdkError(ask('chain'));
    expect(err.status).to.equal(502);
    expect(err.error).to.deep.equal({ message: "every target of 'chain' failed; the last said: boom", type: 'provider_error', code: 'server_error', param: null, provider: 'b' });
    expect([chatCalls(a), chatCalls(b)]).to.deep.equal([2, 2]);
  });

  it('opens the breaker after repeated failures, skips the target, then probes it back', async () => {
    a.on('POST', CHAT, serverError);
    expect((await ask('chain')).response.headers.get('x-gateway-provider')).to.equal('b');
    expect(chatCalls(a)).to.equal(2);
    // Open: `a` is not called at all.
    const skipped = await ask('chain');
    expect(await attemptsOf(skipped.response.headers.get('x-request-id'))).to.deep.equal([['b', 200, null]]);
    expect(chatCalls(a)).to.equal(2);
    // After the cooldown one call probes `a`, which is well again, and closes the breaker.
    a.on('POST', CHAT, (_req, res) => sendJson(res, 200, chatAnswer('back')));
    await new Promise((r) => setTimeout(r, 450));
    const probe = await ask('chain');
    const after = await ask('chain');
    expect([probe.data.choices[0]!.message.content, after.response.headers.get('x-gateway-provider'), chatCalls(a)]).to.deep.equal(['back', 'a', 4]);
  });

  it('shows an open breaker on /metrics as sluice_breakers_open{provider} 1, and 0 once a probe closed it', async () => {
    const openBreakers = async (): Promise<Record<string, number>> => {
      const samples = parseSamples(await (await gw.fetch('/metrics')).text());
      return Object.fromEntries(samplesOf(samples, 'sluice_breakers_open').map((s) => [s.labels['provider'], s.value]));
    };
    expect(await openBreakers()).to.deep.equal({ a: 0, b: 0, dead: 0, claude: 0 });
    a.on('POST', CHAT, serverError);
    await ask('chain');
    expect(await openBreakers()).to.deep.equal({ a: 1, b: 0, dead: 0, claude: 0 });
    a.on('POST', CHAT, (_req, res) => sendJson(res, 200, chatAnswer('back')));
    await new Promise((r) => setTimeout(r, 450));
    // The cooldown is over, but the breaker is open until a call succeeds.
    expect((await openBreakers())['a']).to.equal(1);
    expect((await ask('chain')).response.headers.get('x-gateway-provider')).to.equal('a');
    expect(await openBreakers()).to.deep.equal({ a: 0, b: 0, dead: 0, claude: 0 });
  });

  it('refuses with 503 circuit_open, calling nothing, when every target is out', async () => {
    a.on('POST', CHAT, serverError);
    expect((await sdkError(ask('a/gpt-4o-mini'))).status).to.equal(502);
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'a/gpt-4o-mini', messages: MESSAGES }) });
    expect([res.status, res.headers.get('retry-after'), chatCalls(a)]).to.deep.equal([503, '1', 2]);
    expect(await res.json()).to.deep.equal({
      error: { message: "every target of 'a/gpt-4o-mini' is out after repeated failures; try again later", type: 'provider_error', code: 'circuit_open', param: null },
    });
  });

  it('gives the same OpenAI-shaped answer when an openai target fails over to anthropic', async () => {
    a.on('POST', CHAT, serverError);
    const { data, response } = await ask('cross');
    expect([data.object, data.choices[0]!.message.role, data.choices[0]!.message.content]).to.deep.equal(['chat.completion', 'assistant', 'Hello World']);
    expect([response.headers.get('x-gateway-provider'), response.headers.get('x-gateway-model')]).to.deep.equal(['claude', 'claude-sonnet-4-20250514']);
    // The cost is the answering call's: what the same call straight to claude costs, not openai's price.
    const direct = await ask('claude/claude-sonnet-4-20250514');
    const costOf = async (id: string | null): Promise<string | null> => (await auditEntry<{ cost: { total_usd: string | null } }>(gw, id!)).cost.total_usd;
    const [viaFailover, straight] = [await costOf(response.headers.get('x-request-id')), await costOf(direct.response.headers.get('x-request-id'))];
    expect(viaFailover).to.be.a('string');
    expect(viaFailover).to.equal(straight);
    expect(viaFailover).to.not.equal(await costOf((await ask('b/gpt-4o-mini')).response.headers.get('x-request-id')));
  });

  it('fails a stream over when the first target fails before its first byte', async () => {
    a.on('POST', CHAT, serverError);
    const { data, response } = await gw.client().chat.completions.create({ model: 'chain', messages: MESSAGES, stream: true }).withResponse();
    let text = '';
    for await (const chunk of data) text += chunk.choices[0]?.delta.content ?? '';
    expect([text, response.headers.get('x-gateway-provider')]).to.deep.equal(['Hello, World!', 'b']);
  });

  it('ends a stream that breaks after its first byte with an error event, without failing over', async () => {
    a.on('POST', CHAT, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`, () => setTimeout(() => res.destroy(), 20));
    });
    const { data } = await gw.client().chat.completions.create({ model: 'chain', messages: MESSAGES, stream: true }).withResponse();
    let text = '';
    let failure: unknown = null;
    try {
      for await (const chunk of data) text += chunk.choices[0]?.delta.content ?? '';
    } catch (err) {
      failure = err;
    }
    expect(text).to.equal('Hel');
    // The SDK raises the gateway's error event as an APIError carrying the envelope.
    expect(failure).to.be.instanceOf(APIError);
    expect((failure as APIError).error).to.deep.equal({ message: "provider 'a' unreachable or connection broken (UND_ERR_SOCKET)", type: 'provider_error', code: null, param: null, provider: 'a' });
    expect(chatCalls(b)).to.equal(0);
  });

  const streamChat = (model: string): Promise<Response> =>
    gw.fetch(CHAT, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: MESSAGES, stream: true }) });

  it('fails a stream over when its target answers a head and then an error before any event (the client gets the next target\'s stream)', async () => {
    a.on('POST', CHAT, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"error":{"message":"overloaded","type":"server_error","code":"overloaded"}}\n\n');
    });
    const res = await streamChat('chain');
    const text = await res.text();
    expect([res.status, res.headers.get('content-type'), res.headers.get('x-gateway-provider')]).to.deep.equal([200, 'text/event-stream; charset=utf-8', 'b']);
    expect(streamedContent(text)).to.equal('Hello, World!');
    expect(await attemptsOf(res.headers.get('x-request-id'))).to.deep.equal([
      ['a', 502, 'overloaded'],
      ['a', 502, 'overloaded'],
      ['b', 200, null],
    ]);
    expect([chatCalls(a), chatCalls(b)]).to.deep.equal([2, 1]);
  });

  it('closes the upstream call of a stream that failed before its first output at once, not when the request ends', async () => {
    // `a` answers a head and an error event, then holds its connection open as if more could come.
    const closedAt: number[] = [];
    a.on('POST', CHAT, (_req, res) => {
      res.on('close', () => closedAt.push(performance.now()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"error":{"message":"overloaded","type":"server_error","code":"overloaded"}}\n\n');
    });
    let bAskedAt = 0;
    b.on('POST', CHAT, async (_req, res) => {
      bAskedAt = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 300));
      sendJson(res, 200, chatAnswer('from b'));
    });
    const res = await streamChat('chain');
    expect([res.status, res.headers.get('x-gateway-provider'), streamedContent(await res.text())]).to.deep.equal([200, 'b', 'from b']);
    // Both tries of `a` were closed by the time `b` was asked (within moments: the close crosses a socket), not 300 ms later.
    expect(closedAt).to.have.length(2);
    expect(closedAt.map((at) => at - bAskedAt < 100)).to.deep.equal([true, true]);
  });

  it('fails a stream over when its target\'s connection breaks right after the head', async () => {
    a.on('POST', CHAT, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      setTimeout(() => res.destroy(), 20);
    });
    const res = await streamChat('chain');
    const text = await res.text();
    expect([res.status, res.headers.get('x-gateway-provider'), streamedContent(text)]).to.deep.equal([200, 'b', 'Hello, World!']);
    const broken = "provider 'a' unreachable or connection broken (UND_ERR_SOCKET)";
    expect(await attemptsOf(res.headers.get('x-request-id'))).to.deep.equal([
      ['a', 502, broken],
      ['a', 502, broken],
      ['b', 200, null],
    ]);
  });

  it('splits a weighted virtual model by weight over 1,000 calls', async function () {
    this.timeout(60_000);
    const client = gw.client();
    for (let sent = 0; sent < 1000; sent += 50) {
      await Promise.all(Array.from({ length: 50 }, () => client.chat.completions.create({ model: 'split', messages: MESSAGES })));
    }
    // Weights 3:1: 750 expected, ±5 standard deviations (13.7 each) as the tolerance.
    expect(chatCalls(a) + chatCalls(b)).to.equal(1000);
    expect(chatCalls(a)).to.be.within(682, 818);
  });

  it('sends lowest_latency calls to the target that answered fastest', async () => {
    const reply = chatAnswer('slow');
    a.on('POST', CHAT, (_req, res) => void setTimeout(() => sendJson(res, 200, reply), 150));
    const order: Array<string | null> = [];
    for (let i = 0; i < 4; i++) order.push((await ask('fastest')).response.headers.get('x-gateway-provider'));
    // Neither measured: config order; then `b` (unmeasured) is measured; then the faster one.
    expect(order).to.deep.equal(['a', 'b', 'b', 'b']);
  });
});

describe('failover: a call waiting to retry when the gateway shuts down @integration', () => {
  it("gets the gateway's 503 shutting_down, not a 500", async () => {
    const a = await startOpenAIMock();
    a.on('POST', CHAT, (_req, res) => {
      res.setHeader('retry-after', '4');
      sendJson(res, 429, { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    });
    const gw = await startTestGateway({
      config: {
        server: { shutdown_timeout_ms: 300 },
        providers: { a: { type: 'openai', base_url: `${a.url}/v1`, api_key: 'sk-a' } },
        plugins: [...withPluginOptions('router', {}), { name: 'failover', options: { retry: { retry_after_cap_ms: 5000 } } }],
      },
    });
    try {
      const waiting = gw.fetch(CHAT, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'a/gpt-4o-mini', messages: MESSAGES }) });
      // The 429 came; the call now waits out its retry-after (4 s) past the shutdown deadline.
      await waitFor(() => a.requests.some((r) => r.path === CHAT), 2000, 'the first try');
      const closed = gw.close();
      const res = await waiting;
      expect([res.status, res.headers.get('retry-after'), await res.json()]).to.deep.equal([
        503,
        '1',
        { error: { message: 'the gateway shut down before the answer was complete', type: 'internal_error', code: 'shutting_down', param: null } },
      ]);
      await closed;
    } finally {
      await gw.close();
      await a.close();
    }
  });
});

/** The content of a chat stream's events, joined. */
function streamedContent(text: string): string {
  return sseData(text)
    .filter((data) => data !== '[DONE]')
    .map((data) => (JSON.parse(data) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
    .join('');
}

function chatAnswer(content: string): Record<string, unknown> {
  return { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
}
