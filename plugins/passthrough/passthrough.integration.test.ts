// Passthrough end to end: clients → Sluice (the shipped plugins, a probe of what the log stage
// sees, and a test key store) → the local OpenAI mock, or a bare node:http upstream where the
// test must watch bytes arrive. Tagging is on, with the e-mail header marked DONOTPASS.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { REQUEST_ID, expectError } from '../../test/helpers/errors.js';
import { fixtureJson, fixtureText } from '../../test/helpers/fixtures.js';
import { ANTHROPIC_KEY, AnthropicMock } from '../../test/helpers/mock-anthropic.js';
import { GEMINI_KEY, GeminiMock, nativeJson, nativeText } from '../../test/helpers/mock-gemini.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import { sendJson, splitSse } from '../../test/helpers/mock-provider.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { closedPort, rawRequest, waitFor } from '../../test/helpers/net.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { MASTER_KEY, startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { LIMITED_KEY, TEAM_KEY } from './test-keys.js';
import type { ProbedPassthrough } from './test-probe.js';

const PROBE = fileURLToPath(new URL('./test-probe.ts', import.meta.url));
const KEYS = fileURLToPath(new URL('./test-keys.ts', import.meta.url));
const TAGGING = {
  TAGGING_HEADER_1: 'X-OpenWebUI-User-Id',
  TAGGING_HEADER_2: 'X-OpenWebUI-User-Email',
  TAGGING_HEADER_2_DONOTPASS: 'true',
};
const MiB = 1024 * 1024;
const CHAT_BODY = '{"model":"gpt-4o-mini",  "messages":[{"role":"user","content":"Say hi"}] }';
const CHAT_USAGE = { input_tokens: 17, output_tokens: 4, total_tokens: 21, cached_input_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, audio_input_tokens: 0, audio_output_tokens: 0 };
const SLOW_EVENTS = ['data: {"n":1}\n\n', 'data: {"n":2}\n\n', 'data: [DONE]\n\n'];

/** A promise and the function that settles it, for a mock route the test holds back. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { opened, open };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms); })])
    .finally(() => clearTimeout(timer));
}

/** A GET whose path is sent exactly as written, with the master key. */
function getPath(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers: { authorization: `Bearer ${MASTER_KEY}` }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('passthrough @integration', () => {
  let mock: MockProvider;
  let gw: TestGateway;
  let slow = gate();
  let slowFinished = false;

  async function probed(): Promise<ProbedPassthrough[]> {
    return (await (await gw.fetch('/test/passthrough-probe')).json()) as ProbedPassthrough[];
  }

  before(async () => {
    mock = await startOpenAIMock();
    mock.on('POST', '/v1/slow-stream', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(SLOW_EVENTS[0]);
      await slow.opened;
      for (const event of SLOW_EVENTS.slice(1)) if (!res.destroyed) res.write(event);
      res.end();
      slowFinished = true;
    });
    mock.on('POST', '/v1/broken-stream', async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(SLOW_EVENTS[0]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      res.destroy();
    });
    mock.on('POST', '/v1/upload', (req, res) => sendJson(res, 200, { bytes: Buffer.byteLength(req.body), sha256: sha256(req.body) }));
    mock.on('POST', '/v1/refuse', (_req, res) => {
      res.writeHead(400, {
        'content-type': 'application/json',
        'x-request-id': 'req_provider_1',
        'x-provider-detail': 'abc',
        'set-cookie': '__cf_bm=secret; path=/',
      });
      res.end('{"error":{"message":"Unrecognized request argument supplied: foo","type":"invalid_request_error","param":null,"code":null}}');
    });
    gw = await startTestGateway({
      env: { ...openAIEnv(mock), ...TAGGING },
      config: { plugins: [...defaultPlugins(), { path: PROBE }, { path: KEYS }] },
    });
    // Model discovery hits /v1/models too: let it finish before tests count the mock's requests.
    await gw.client().models.list();
  });
  after(async () => {
    slow.open();
    await gw.close();
    await mock.close();
  });
  beforeEach(async () => {
    mock.reset();
    slow = gate();
    slowFinished = false;
    await probed();
  });

  it('sends /p/openai/models and /p/openai/v1/models to /v1/models, with the query string', async () => {
    const expected = JSON.stringify(fixtureJson('recorded/openai/models.json'));
    for (const path of ['/p/openai/models', '/p/openai/v1/models?limit=2&order=desc']) {
      const res = await gw.fetch(path);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json');
      expect(res.headers.get('x-gateway-provider')).to.equal('openai');
      expect(await res.text()).to.equal(expected);
    }
    expect(mock.requests.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['GET /v1/models', 'GET /v1/models?limit=2&order=desc']);
  });

  it("forwards the client's headers but its credentials, hop-by-hop and DONOTPASS ones, with the provider key and the exact body", async () => {
    const res = await rawRequest(`${gw.url}/p/openai/v1/chat/completions`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${MASTER_KEY}`,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(CHAT_BODY)),
        Connection: 'keep-alive, X-Hop-Secret',
        'Keep-Alive': 'timeout=5',
        'X-Hop-Secret': 'hop',
        TE: 'trailers',
        Upgrade: 'h2c',
        'Proxy-Authorization': 'Basic cHJveHk6c2VjcmV0',
        'X-Api-Key': 'client-key',
        'Api-Key': 'client-key',
        'X-Goog-Api-Key': 'client-key',
        Cookie: 'session=abc',
        Expect: '100-continue',
        'Accept-Encoding': 'gzip, br',
        'X-OpenWebUI-User-Id': 'u-42',
        'X-OpenWebUI-User-Email': 'ann@example.com',
        'X-Custom': 'kept',
        'User-Agent': 'passthrough-test/1.0',
        Accept: 'application/json',
      },
      chunks: [CHAT_BODY],
    });
    const received = mock.last();
    expect(received.url).to.equal('/v1/chat/completions');
    expect(received.body).to.equal(CHAT_BODY);
    const expectedHeaders: IncomingHttpHeaders = {
      host: new URL(mock.url).host,
      authorization: 'Bearer sk-upstream-openai-key',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(CHAT_BODY)),
      'x-openwebui-user-id': 'u-42',
      'x-custom': 'kept',
      'user-agent': 'passthrough-test/1.0',
      accept: 'application/json',
    };
    expect(received.headers).to.deep.equal(expectedHeaders);
    expect(res.status).to.equal(200);
    expect(res.body).to.equal(JSON.stringify(fixtureJson('recorded/openai/chat_completion.json')));
    expect(res.headers['content-type']).to.equal('application/json');
    expect(res.headers['x-request-id']).to.match(REQUEST_ID);
    expect(res.headers['x-gateway-provider']).to.equal('openai');
    expect(res.headers['x-gateway-model']).to.equal('gpt-4o-mini');
  });

  it("passes a provider's 4xx through as it is: status, body, headers (not its cookies, not over the gateway's request id)", async () => {
    const res = await gw.fetch('/p/openai/v1/refuse', { method: 'POST', body: '{"foo":1}' });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.equal('{"error":{"message":"Unrecognized request argument supplied: foo","type":"invalid_request_error","param":null,"code":null}}');
    expect(res.headers.get('content-type')).to.equal('application/json');
    expect(res.headers.get('x-provider-detail')).to.equal('abc');
    expect(res.headers.get('set-cookie')).to.equal(null);
    expect(res.headers.get('x-request-id')).to.match(REQUEST_ID);
    expect(res.headers.get('x-provider-request-id')).to.equal('req_provider_1');

    const unknown = await gw.fetch('/p/openai/v1/no-such-route', { method: 'POST', body: '{}' });
    expect(unknown.status).to.equal(404);
    expect(await unknown.text()).to.equal('{"error":{"message":"mock: no route POST /v1/no-such-route","type":"invalid_request_error","code":"unknown_url"}}');

    const [refused, missing] = await probed();
    expect(refused).to.deep.include({ status: 400, errorStatus: 400, usage: null, model: null });
    expect(refused!.attempts).to.deep.equal([{ provider: 'openai', model: '/v1/refuse', status: 400, error: "provider 'openai' answered 400" }]);
    expect(missing).to.deep.include({ status: 404, errorStatus: 404 });
  });

  it('streams an event stream as it comes: the first event reaches the client while the provider is still writing', async () => {
    const res = await gw.fetch('/p/openai/v1/slow-stream', { method: 'POST', body: '{"stream":true}' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    const reader = res.body!.getReader();
    const first = await withTimeout(reader.read(), 5000, 'first event');
    expect(new TextDecoder().decode(first.value)).to.equal(SLOW_EVENTS[0]);
    expect(slowFinished).to.equal(false);
    slow.open();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).to.equal(SLOW_EVENTS.slice(1).join(''));
    expect(slowFinished).to.equal(true);
  });

  it('aborts the upstream request when the client goes away mid-stream', async () => {
    const controller = new AbortController();
    const res = await gw.fetch('/p/openai/v1/slow-stream', { method: 'POST', body: '{"stream":true}', signal: controller.signal });
    const reader = res.body!.getReader();
    await withTimeout(reader.read(), 5000, 'first event');
    controller.abort();
    await waitFor(() => mock.aborted === 1, 5000, 'the mock to see its client go');
    await waitFor(async () => {
      const calls = await probed();
      if (calls.length === 0) return false;
      expect(calls).to.have.length(1);
      expect(calls[0]).to.deep.include({ status: 200, stream: true, usage: null, errorCode: null, responseBody: SLOW_EVENTS[0] });
      return true;
    }, 5000, 'the call to be logged');
  });

  it('cuts the response when the provider breaks off mid-stream, and records the error', async () => {
    const res = await gw.fetch('/p/openai/v1/broken-stream', { method: 'POST', body: '{"stream":true}' });
    expect(res.status).to.equal(200);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).to.equal(SLOW_EVENTS[0]);
    let cut = false;
    try {
      while (!(await reader.read()).done);
    } catch {
      cut = true;
    }
    expect(cut, 'the client must not see a clean end').to.equal(true);
    const [call] = await probed();
    expect(call).to.deep.include({ status: 200, errorStatus: 502, errorCode: null, responseBody: SLOW_EVENTS[0] });
    expect(call!.passthrough!.response).to.deep.equal({ bytes: SLOW_EVENTS[0]!.length, truncated: false, complete: false });
  });

  it('records status, model, labels, usage and bodies of a JSON call for pricing and the audit log', async () => {
    const res = await gw.fetch('/p/openai/v1/chat/completions', {
      method: 'POST',
      headers: { 'x-openwebui-user-id': 'u-42', 'x-openwebui-user-email': 'ann@example.com' },
      body: CHAT_BODY,
    });
    const answer = await res.text();
    expect(res.status).to.equal(200);
    const fixture = fixtureJson('recorded/openai/chat_completion.json');
    const [call] = await probed();
    expect(call).to.deep.equal({
      path: '/p/openai/v1/chat/completions',
      status: 200,
      model: 'openai/gpt-4o-mini',
      // The model read from the body brings its catalog prices, so the call is priced.
      target: { id: 'openai/passthrough', model: '/v1/chat/completions', provider: 'openai', pricing: { currency: 'USD', input_per_mtok: 0.15, output_per_mtok: 0.6, cached_input_per_mtok: 0.075, batch_input_per_mtok: 0.075, batch_output_per_mtok: 0.3, service_tiers: { priority: { input_per_mtok: 0.25, cached_input_per_mtok: 0.125, output_per_mtok: 1 } } } },
      labels: { 'x-openwebui-user-id': 'u-42', 'x-openwebui-user-email': 'ann@example.com' },
      usage: { ...CHAT_USAGE, service_tier: 'default', raw: fixture['usage'] },
      stream: false,
      rawBody: CHAT_BODY,
      rawBodyBytes: Buffer.byteLength(CHAT_BODY),
      responseBody: fixture,
      errorCode: null,
      errorStatus: null,
      attempts: [{ provider: 'openai', model: '/v1/chat/completions', status: 200, error: null }],
      passthrough: {
        url: `${mock.url}/v1/chat/completions`,
        request: { bytes: Buffer.byteLength(CHAT_BODY), truncated: false, complete: true },
        response: { bytes: Buffer.byteLength(answer), truncated: false, complete: true },
      },
    });
  });

  it('records the usage of an event stream, and the stream as it went out', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Say hi' }] });
    const res = await gw.fetch('/p/openai/chat/completions', { method: 'POST', headers: { 'x-openwebui-user-id': 'u-7' }, body });
    const transcript = await res.text();
    expect(res.status).to.equal(200);
    const events = splitSse(transcript);
    const recorded = splitSse(fixtureText('recorded/openai/chat_completion_stream.txt'));
    expect(events.slice(0, recorded.length - 1)).to.deep.equal(recorded.slice(0, -1));
    expect(events.at(-1)).to.equal('data: [DONE]\n\n');
    const usageEvent = JSON.parse(events.at(-2)!.slice('data: '.length)) as { usage: unknown };
    const [call] = await probed();
    expect(call).to.deep.include({ status: 200, stream: true, model: 'openai/gpt-4o-mini', responseBody: transcript, errorCode: null });
    expect(call!.labels).to.deep.equal({ 'x-openwebui-user-id': 'u-7' });
    expect(call!.usage).to.deep.equal({ ...CHAT_USAGE, raw: usageEvent.usage });
  });

  it('leaves out x-gateway-model when the model a client wrote is no valid header value', async () => {
    const res = await gw.fetch('/p/openai/v1/chat/completions', { method: 'POST', body: '{"model":"gpt\\r\\nx-injected: 1","messages":[]}' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-gateway-model')).to.equal(null);
    expect(res.headers.get('x-injected')).to.equal(null);
    await res.text();
    const [call] = await probed();
    expect(call!.model).to.equal('openai/gpt\r\nx-injected: 1');
  });

  it('passes a 5 MiB upload through intact and keeps only the capture limit of it', async () => {
    const payload = `{"model":"big","input":"${'a'.repeat(5 * MiB)}"}`;
    const res = await gw.fetch('/p/openai/v1/upload', { method: 'POST', body: payload });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ bytes: payload.length, sha256: sha256(payload) });
    const [call] = await probed();
    expect(call!.rawBodyBytes).to.equal(MiB);
    expect(call!.rawBody).to.equal(payload.slice(0, MiB));
    // The JSON was cut, so the model is not known.
    expect(call!.model).to.equal(null);
    expect(call!.passthrough!.request).to.deep.equal({ bytes: payload.length, truncated: true, complete: true });
  });

  it('answers 401 without a gateway key, and never calls the provider', async () => {
    await expectError(await fetch(`${gw.url}/p/openai/models`), 401, {
      message: 'missing bearer credential: send Authorization: Bearer <key>', type: 'authentication_error', code: 'invalid_api_key', param: null,
    });
    await expectError(await fetch(`${gw.url}/p/openai/models`, { headers: { authorization: 'Bearer sk-upstream-openai-key' } }), 401, {
      message: 'invalid credential', type: 'authentication_error', code: 'invalid_api_key', param: null,
    });
    expect(mock.requests).to.deep.equal([]);
  });

  it('answers 404 provider_not_found for a provider that is not enabled', async () => {
    await expectError(await gw.fetch('/p/nope/v1/models'), 404, {
      message: "no provider 'nope' serves passthrough requests", type: 'not_found_error', code: 'provider_not_found', param: null,
    });
  });

  it('refuses dot segments that would leave the base URL', async () => {
    // By path, not URL: a client's URL parser would resolve the segments before sending.
    for (const path of ['/p/openai/v1/%2e%2e/admin', '/p/openai/v1/../admin']) {
      const res = await getPath(gw.url, path);
      expect(res.status).to.equal(400);
      expect(JSON.parse(res.body)).to.deep.equal({ error: { message: 'a passthrough path may not contain . or .. segments', type: 'invalid_request_error', code: 'invalid_path', param: null } });
    }
    expect(mock.requests).to.deep.equal([]);
  });

  it('lets a key through only to a provider all of whose models it may use, with its labels', async () => {
    await expectError(await gw.fetch('/p/openai/models', { headers: { authorization: `Bearer ${LIMITED_KEY}` } }), 403, {
      message: "this key may not use passthrough to 'openai': its allowed models must include 'openai/*'", type: 'permission_error', code: 'model_not_allowed', param: null,
    });
    const res = await gw.fetch('/p/openai/models', { headers: { authorization: `Bearer ${TEAM_KEY}`, 'x-openwebui-user-id': 'u-9' } });
    expect(res.status).to.equal(200);
    const calls = await probed();
    expect(calls.map((c) => [c.status, c.labels])).to.deep.equal([
      [403, {}],
      [200, { team: 'platform', 'x-openwebui-user-id': 'u-9' }],
    ]);
  });
});

describe('passthrough to the native APIs of Anthropic and Gemini @integration', () => {
  let anthropic: AnthropicMock;
  let gemini: GeminiMock;
  let gw: TestGateway;

  async function lastCall(): Promise<ProbedPassthrough> {
    const calls = (await (await gw.fetch('/test/passthrough-probe')).json()) as ProbedPassthrough[];
    return calls.at(-1)!;
  }

  before(async () => {
    anthropic = await AnthropicMock.start();
    gemini = await GeminiMock.start();
    gw = await startTestGateway({
      env: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: anthropic.url, GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url },
      config: { plugins: [...defaultPlugins(), { path: PROBE }] },
    });
  });
  after(async () => {
    await gw.close();
    await anthropic.close();
    await gemini.close();
  });

  const message = { model: 'claude-sonnet-4-20250514', max_tokens: 64, messages: [{ role: 'user', content: 'Say hi' }] };

  it("sends Anthropic its key and version, and reads its usage from the answer", async () => {
    const res = await gw.fetch('/p/anthropic/v1/messages', { method: 'POST', body: JSON.stringify(message) });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal(fixtureJson('recorded/anthropic/messages.json'));
    expect(anthropic.provider.last().headers).to.deep.include({ 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' });
    expect(anthropic.provider.last().headers['authorization']).to.equal(undefined);
    const call = await lastCall();
    expect(call.model).to.equal('anthropic/claude-sonnet-4-20250514');
    expect(call.usage).to.deep.equal({
      input_tokens: 14, output_tokens: 5, total_tokens: 19, cached_input_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0,
      audio_input_tokens: 0, audio_output_tokens: 0, raw: { input_tokens: 14, output_tokens: 5 },
    });
  });

  it("reads Anthropic's stream usage from message_start and message_delta", async () => {
    const res = await gw.fetch('/p/anthropic/v1/messages', { method: 'POST', body: JSON.stringify({ ...message, stream: true }) });
    expect(await res.text()).to.equal(splitSse(fixtureText('recorded/anthropic/messages_stream.txt')).join(''));
    const call = await lastCall();
    expect(call.stream).to.equal(true);
    expect(call.usage).to.deep.include({ input_tokens: 10, output_tokens: 5, total_tokens: 15, cached_input_tokens: 0, cache_write_tokens: 0 });
  });

  const contents = { contents: [{ role: 'user', parts: [{ text: 'Which is larger, 9.9 or 9.11?' }] }] };

  it('sends Gemini its key (and no bearer token), and reads usageMetadata and the model in the path', async () => {
    const res = await gw.fetch('/p/gemini/v1beta/models/gemini-2.5-flash:generateContent', { method: 'POST', body: JSON.stringify(contents) });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal(nativeJson('generate-content-thinking.json'));
    expect(gemini.lastCall().headers['x-goog-api-key']).to.equal(GEMINI_KEY);
    const call = await lastCall();
    expect(call.model).to.equal('gemini/gemini-2.5-flash');
    expect(call.usage).to.deep.include({ input_tokens: 1289, output_tokens: 252, total_tokens: 1541, cached_input_tokens: 1024, reasoning_tokens: 211 });
  });

  it("reads Gemini's stream usage from its last chunk", async () => {
    const res = await gw.fetch('/p/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { method: 'POST', body: JSON.stringify(contents) });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    expect(splitSse(await res.text())).to.deep.equal(splitSse(nativeText('stream-thinking.txt')));
    const call = await lastCall();
    expect(call.usage).to.deep.include({ input_tokens: 14, output_tokens: 332, total_tokens: 346, reasoning_tokens: 313 });
  });
});

describe('passthrough: uploads stream to the provider @integration', () => {
  let upstream: Server;
  let received = 0;
  let gw: TestGateway;

  before(async () => {
    upstream = createServer((req, res) => {
      received = 0;
      req.on('data', (chunk: Buffer) => { received += chunk.length; });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ received }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as AddressInfo).port;
    gw = await startTestGateway({ env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` } });
  });
  after(async () => {
    await gw.close();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('sends the first part of an upload before the client has sent the rest', async () => {
    const part = Buffer.alloc(256 * 1024, 'x');
    const answer = new Promise<string>((resolve, reject) => {
      const req = request(`${gw.url}/p/openai/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/octet-stream' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => { text += c; });
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.write(part);
      // The rest is sent only once the provider has the first part: a gateway that buffered
      // the upload would wait for the end, and this test would time out.
      waitFor(() => received >= part.length, 5000, 'the first part at the provider').then(() => req.end(part), reject);
    });
    expect(JSON.parse(await answer)).to.deep.equal({ received: 2 * part.length });
  });
});

describe('passthrough: providers that fail @integration', () => {
  it('answers 502 provider_error when the provider cannot be reached', async () => {
    const gw = await startTestGateway({ env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1` } });
    try {
      await expectError(await gw.fetch('/p/openai/models'), 502, {
        message: "provider 'openai' unreachable or connection broken (ECONNREFUSED)", type: 'provider_error', code: null, param: null, provider: 'openai',
      });
    } finally {
      await gw.close();
    }
  });

  it('cuts a stream that stays silent past the idle timeout, and records a 504', async () => {
    const mock = await startOpenAIMock();
    mock.on('POST', '/v1/silent', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(SLOW_EVENTS[0]);
    });
    const gw = await startTestGateway({ env: openAIEnv(mock), config: { upstream: { idle_timeout_ms: 300 }, plugins: [...defaultPlugins(), { path: PROBE }] } });
    try {
      const res = await gw.fetch('/p/openai/v1/silent', { method: 'POST', body: '{}' });
      await res.text().then(() => expect.fail('the stream must be cut'), () => undefined);
      await waitFor(async () => {
        const calls = (await (await gw.fetch('/test/passthrough-probe')).json()) as ProbedPassthrough[];
        if (calls.length === 0) return false;
        expect(calls[0]).to.deep.include({ status: 200, errorStatus: 504, errorCode: 'provider_timeout', responseBody: SLOW_EVENTS[0] });
        return true;
      }, 5000, 'the call to be logged');
      await waitFor(() => mock.aborted === 1, 5000, 'the mock to see the gateway go');
    } finally {
      await gw.close();
      await mock.close();
    }
  });

  it('answers 504 when no response comes in time, and gives up the upstream request', async () => {
    const mock = await startOpenAIMock();
    mock.on('GET', '/v1/hang', () => {});
    const gw = await startTestGateway({ env: openAIEnv(mock), config: { upstream: { first_byte_timeout_ms: 300 } } });
    try {
      await gw.client().models.list();
      mock.reset();
      await expectError(await gw.fetch('/p/openai/hang'), 504, {
        message: "provider 'openai' timed out (no response headers in time)", type: 'provider_error', code: 'provider_timeout', param: null, provider: 'openai',
      });
      await waitFor(() => mock.aborted === 1, 5000, 'the mock to see the gateway go');
    } finally {
      await gw.close();
      await mock.close();
    }
  });
});
