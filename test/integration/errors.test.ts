// The contract's Errors table, row by row, through real HTTP: exact statuses, the whole
// envelope (`code` and `param` always present, `provider` only when a provider produced the
// error), and the error rule inside SSE streams. The mock OpenAI scripts each upstream
// failure by the model name it is asked for.
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { APIError } from 'openai';
import type { ServerResponse } from 'node:http';
import { expectError, REQUEST_ID } from '../helpers/errors.js';
import { fixtureJson, fixtureText } from '../helpers/fixtures.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import type { MemoryLogger } from '../helpers/memory-logger.js';
import { OPENAI_KEY, openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { sendJson, splitSse } from '../helpers/mock-provider.js';
import type { MockProvider, RecordedRequest } from '../helpers/mock-provider.js';
import { closedPort, rawRequest } from '../helpers/net.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { readSseData } from '../helpers/sse.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';
import { BOOM_MESSAGE, BOOM_MODEL } from '../fixtures/plugins/throwing-plugin.js';

const THROWING_PLUGIN = fileURLToPath(new URL('../fixtures/plugins/throwing-plugin.ts', import.meta.url));
const BODY_LIMIT = 2048;
const CHUNKS = splitSse(fixtureText('recorded/openai/chat_completion_stream.txt'));
const FIRST_TWO = CHUNKS.slice(0, 2).map((e) => e.slice('data: '.length, -2));

const OPENAI_400 = { error: { message: "Invalid value for 'temperature': must be a number.", type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } };
const OPENAI_404 = { error: { message: 'The model `missing` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } };
const OPENAI_429 = { error: { message: 'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.', type: 'requests', param: null, code: 'rate_limit_exceeded' } };
const OPENAI_500 = { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } };
const STREAM_ERROR = { error: { message: 'The model is overloaded, try again later.', type: 'server_error', param: null, code: 'overloaded' } };

function startStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
}

/** Upstream behaviour by the model name the gateway asks for. */
const SCRIPTS: Record<string, (req: RecordedRequest, res: ServerResponse) => void | Promise<void>> = {
  'fail-500': (_req, res) => sendJson(res, 500, OPENAI_500),
  'not-json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>502 Bad Gateway</body></html>');
  },
  slow: async (_req, res) => {
    await sleep(3000);
    if (!res.destroyed) sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
  },
  'bad-request': (_req, res) => sendJson(res, 400, OPENAI_400),
  missing: (_req, res) => sendJson(res, 404, OPENAI_404),
  'quotes-key': (_req, res) => sendJson(res, 401, { error: { message: `Incorrect API key provided: ${OPENAI_KEY}. You can find your API key at the dashboard.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }),
  'unavailable-retry': (_req, res) => {
    res.setHeader('retry-after', '12');
    sendJson(res, 503, OPENAI_500);
  },
  'rate-limited': (_req, res) => {
    res.setHeader('retry-after', '7');
    sendJson(res, 429, OPENAI_429);
  },
  'break-stream': async (_req, res) => {
    startStream(res);
    res.write(CHUNKS[0]);
    res.write(CHUNKS[1]);
    await sleep(30);
    res.destroy();
  },
  'error-event': async (_req, res) => {
    startStream(res);
    res.write(CHUNKS[0]);
    res.write(CHUNKS[1]);
    await sleep(10);
    res.write(`data: ${JSON.stringify(STREAM_ERROR)}\n\n`);
    res.end('data: [DONE]\n\n');
  },
  'error-event-quotes-key': async (_req, res) => {
    startStream(res);
    res.write(CHUNKS[0]);
    res.end(`data: ${JSON.stringify({ error: { message: `key ${OPENAI_KEY} is over its quota`, type: 'server_error', param: null, code: 'quota' } })}\n\n`);
  },
  'error-first': (_req, res) => {
    startStream(res);
    res.end(`data: ${JSON.stringify(STREAM_ERROR)}\n\n`);
  },
};

function chat(model: string, extra: Record<string, unknown> = {}): RequestInit {
  return { method: 'POST', body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], ...extra }) };
}

describe('errors: the contract table @integration', () => {
  let mock: MockProvider;
  let gw: TestGateway;
  let log: MemoryLogger;

  before(async () => {
    mock = await startOpenAIMock();
    mock.on('POST', '/v1/chat/completions', async (req, res) => {
      const model = (req.json as { model: string }).model;
      const script = SCRIPTS[model];
      if (script) return script(req, res);
      sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
    });
    log = memoryLogger('error');
    gw = await startTestGateway({
      env: openAIEnv(mock),
      logger: log.logger,
      config: {
        server: { body_limit_bytes: BODY_LIMIT },
        upstream: { first_byte_timeout_ms: 200 },
        providers: { demo: { enabled: true } },
        plugins: [...defaultPlugins(), { path: THROWING_PLUGIN }],
      },
    });
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  describe('400 invalid_request_error', () => {
    it('malformed JSON: code invalid_json, the parser detail in the message', async () => {
      const body = '{"model": "openai/gpt-4o-mini", "messages": [';
      let detail = '';
      try {
        JSON.parse(body);
      } catch (err) {
        detail = (err as Error).message;
      }
      await expectError(await gw.fetch('/v1/chat/completions', { method: 'POST', body }), 400, {
        message: `request body is not valid JSON: ${detail}`,
        type: 'invalid_request_error',
        code: 'invalid_json',
        param: null,
      });
      expect(mock.requests).to.have.length(0);
    });

    it('a body that is JSON but not an object, and an empty body', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', { method: 'POST', body: '[1,2]' }), 400, {
        message: 'request body must be a JSON object',
        type: 'invalid_request_error',
        code: 'invalid_body',
        param: null,
      });
      await expectError(await gw.fetch('/v1/chat/completions', { method: 'POST', body: '' }), 400, {
        message: 'request body is required',
        type: 'invalid_request_error',
        code: 'missing_body',
        param: null,
      });
    });

    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['a message content that is a number', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 42 }] }, 'messages[0].content', "'messages[0].content' has an invalid type or shape"],
      ['temperature out of range', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], temperature: 5 }, 'temperature', "'temperature' must be <= 2"],
      ['stream that is not a boolean', { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: 'yes' }, 'stream', "'stream' must be boolean"],
      ['a missing model', { messages: [{ role: 'user', content: 'hi' }] }, 'model', "'model' is required"],
      ['empty messages', { model: 'openai/gpt-4o-mini', messages: [] }, 'messages', "'messages' must NOT have fewer than 1 items"],
      ['an unknown role', { model: 'openai/gpt-4o-mini', messages: [{ role: 'robot', content: 'hi' }] }, 'messages[0].role', `'messages[0].role' must be one of "system", "developer", "user", "assistant", "tool", "function"`],
    ];
    for (const [what, body, param, message] of cases) {
      it(`${what}: param ${param}`, async () => {
        await expectError(await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify(body) }), 400, {
          message,
          type: 'invalid_request_error',
          code: null,
          param,
        });
        expect(mock.requests).to.have.length(0);
      });
    }

    it('embeddings without input: param input', async () => {
      await expectError(await gw.fetch('/v1/embeddings', { method: 'POST', body: JSON.stringify({ model: 'demo/echo' }) }), 400, {
        message: "'input' is required",
        type: 'invalid_request_error',
        code: null,
        param: 'input',
      });
    });
  });

  describe('401 authentication_error', () => {
    const missing = { message: 'missing bearer credential: send Authorization: Bearer <key>', type: 'authentication_error', code: 'invalid_api_key', param: null };
    const unknown = { message: 'invalid credential', type: 'authentication_error', code: 'invalid_api_key', param: null };

    it('no credential, on a model call and on the models list', async () => {
      const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: chat('openai/gpt-4o-mini').body! });
      await expectError(res, 401, missing);
      await expectError(await fetch(`${gw.url}/v1/models`), 401, missing);
    });

    it('a credential that is not a bearer token', async () => {
      await expectError(await gw.fetch('/v1/models', { headers: { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` } }), 401, missing);
    });

    it('an unknown bearer credential', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', { ...chat('openai/gpt-4o-mini'), headers: { authorization: 'Bearer sk-not-a-key-of-this-gateway' } }), 401, unknown);
    });

    it("never accepts a provider's own key", async () => {
      await expectError(await gw.fetch('/v1/chat/completions', { ...chat('openai/gpt-4o-mini'), headers: { authorization: `Bearer ${OPENAI_KEY}` } }), 401, unknown);
      expect(mock.requests).to.have.length(0);
    });

    it('the SDK sees an AuthenticationError with the envelope', async () => {
      const err = await gw.client('sk-wrong').models.list().then(() => null, (e: unknown) => e);
      expect(err).to.be.instanceOf(APIError);
      expect((err as APIError).status).to.equal(401);
      expect((err as APIError).error).to.deep.equal(unknown);
    });
  });

  describe('404 not_found_error', () => {
    const modelNotFound = (id: string) => ({ message: `model '${id}' does not exist or is not served by this gateway`, type: 'not_found_error', code: 'model_not_found', param: 'model' });

    it('a model id without a prefix', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('gpt-4o-mini')), 404, modelNotFound('gpt-4o-mini'));
    });

    it('an unknown prefix', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('nope/gpt-4o-mini')), 404, modelNotFound('nope/gpt-4o-mini'));
      expect(mock.requests).to.have.length(0);
    });

    it('an unknown model of a known offline provider', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('demo/unknown')), 404, modelNotFound('demo/unknown'));
    });

    it('an unknown model id on GET /v1/models/{id}', async () => {
      await expectError(await gw.fetch('/v1/models/nope%2Fmodel'), 404, modelNotFound('nope/model'));
    });

    it("the provider's own 404 keeps its status and code, with provider set", async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('openai/missing')), 404, {
        message: OPENAI_404.error.message,
        type: 'not_found_error',
        code: 'model_not_found',
        param: null,
        provider: 'openai',
      });
    });

    it('an unknown route, authenticated or not', async () => {
      const expected = { message: 'no route for POST /v1/nope', type: 'not_found_error', code: 'route_not_found', param: null };
      await expectError(await gw.fetch('/v1/nope', { method: 'POST', body: '{}' }), 404, expected);
      await expectError(await fetch(`${gw.url}/v1/nope`, { method: 'POST' }), 404, expected);
    });
  });

  it('405 on a known route with the wrong method, with the allowed method', async () => {
    const res = await gw.fetch('/v1/chat/completions');
    expect(res.headers.get('allow')).to.equal('POST');
    await expectError(res, 405, { message: 'method GET is not allowed on /v1/chat/completions', type: 'invalid_request_error', code: 'method_not_allowed', param: null });
  });

  describe('413 body over server.body_limit_bytes', () => {
    const tooLarge = { error: { message: `request body exceeds the limit of ${BODY_LIMIT} bytes`, type: 'invalid_request_error', code: 'body_too_large', param: null } };
    const big = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(BODY_LIMIT) }] });

    it('declared by content-length', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', { method: 'POST', body: big }), 413, tooLarge.error);
      expect(mock.requests).to.have.length(0);
    });

    it('sent chunked, without a length', async () => {
      const pieces = [big.slice(0, 1000), big.slice(1000, 2000), big.slice(2000)];
      const res = await rawRequest(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.masterKey}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: pieces,
      });
      expect(res.status).to.equal(413);
      expect(res.headers['x-request-id']).to.match(REQUEST_ID);
      expect(JSON.parse(res.body)).to.deep.equal(tooLarge);
      expect(mock.requests).to.have.length(0);
    });

    it('a body just under the limit goes through', async () => {
      const body = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(BODY_LIMIT - 100) }] });
      expect(Buffer.byteLength(body)).to.be.at.most(BODY_LIMIT);
      const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body });
      expect(res.status).to.equal(200);
    });
  });

  it('500 internal_error for a plugin bug: no message, no stack; the cause goes to the operator log', async () => {
    const res = await gw.fetch('/v1/chat/completions', chat(BOOM_MODEL));
    expect(res.status).to.equal(500);
    expect(res.headers.get('x-request-id')).to.match(REQUEST_ID);
    expect(await res.text()).to.equal('{"error":{"message":"internal error","type":"internal_error","code":"internal_error","param":null}}');
    expect(log.lines.some((l) => l.includes(res.headers.get('x-request-id')!) && l.includes(BOOM_MESSAGE))).to.equal(true);
  });

  it('501 unsupported_operation when the provider cannot do the operation', async () => {
    await expectError(await gw.fetch('/v1/responses/compact', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', input: 'long history' }) }), 501, {
      message: "provider 'demo' does not support compact",
      type: 'invalid_request_error',
      code: 'unsupported_operation',
      param: null,
    });
  });

  describe('502 and 504 provider_error', () => {
    it('the provider answers 500', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('openai/fail-500')), 502, {
        message: OPENAI_500.error.message,
        type: 'provider_error',
        code: 'server_error',
        param: null,
        provider: 'openai',
      });
    });

    it('a 503 with retry-after: 502 keeping the retry-after', async () => {
      const res = await gw.fetch('/v1/chat/completions', chat('openai/unavailable-retry'));
      expect(res.headers.get('retry-after')).to.equal('12');
      await expectError(res, 502, { message: OPENAI_500.error.message, type: 'provider_error', code: 'server_error', param: null, provider: 'openai' });
    });

    it('the provider answers something that is not JSON', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('openai/not-json')), 502, {
        message: "provider 'openai' answered with a body that is not JSON",
        type: 'provider_error',
        code: null,
        param: null,
        provider: 'openai',
      });
    });

    it('the provider does not answer within upstream.first_byte_timeout_ms: 504', async () => {
      const started = Date.now();
      await expectError(await gw.fetch('/v1/chat/completions', chat('openai/slow')), 504, {
        message: "provider 'openai' timed out (no response headers in time)",
        type: 'provider_error',
        code: 'provider_timeout',
        param: null,
        provider: 'openai',
      });
      // undici enforces header timeouts on a coarse (~1 s) timer wheel.
      expect(Date.now() - started).to.be.below(2000);
    });
  });

  describe("a provider's 4xx keeps its status and meaning", () => {
    it('a message quoting the credential the gateway sent is redacted, for the client and in the audit log', async () => {
      const res = await gw.fetch('/v1/chat/completions', chat('openai/quotes-key'));
      const id = res.headers.get('x-request-id')!;
      const message = 'Incorrect API key provided: [redacted]. You can find your API key at the dashboard.';
      await expectError(res, 401, { message, type: 'authentication_error', code: 'invalid_api_key', param: null, provider: 'openai' });
      const entry = (await (await gw.fetch(`/admin/audit/${id}`)).json()) as { error: { message: string }; response_body: string; attempts: Array<{ error: string }> };
      expect(entry.error.message).to.equal(message);
      expect(entry.attempts[0]!.error).to.equal(message);
      expect(JSON.stringify(entry)).not.to.include(OPENAI_KEY);
    });

    it('400 with the provider message, code and param', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('openai/bad-request')), 400, {
        message: OPENAI_400.error.message,
        type: 'invalid_request_error',
        code: 'invalid_value',
        param: 'temperature',
        provider: 'openai',
      });
    });

    it('429 with its retry-after passed on', async () => {
      const res = await gw.fetch('/v1/chat/completions', chat('openai/rate-limited'));
      expect(res.headers.get('retry-after')).to.equal('7');
      await expectError(res, 429, { message: OPENAI_429.error.message, type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null, provider: 'openai' });
    });
  });

  describe('errors of streams', () => {
    it('a connection that breaks after two chunks ends with one error event, no [DONE]', async () => {
      const res = await gw.fetch('/v1/chat/completions', chat('openai/break-stream', { stream: true }));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
      expect(res.headers.get('x-request-id')).to.match(REQUEST_ID);
      const events = await readSseData(res);
      expect(events).to.have.length(3);
      expect(events.slice(0, 2)).to.deep.equal(FIRST_TWO);
      expect(JSON.parse(events[2]!)).to.deep.equal({
        error: { message: "provider 'openai' unreachable or connection broken (UND_ERR_SOCKET)", type: 'provider_error', code: null, param: null, provider: 'openai' },
      });
    });

    it("a provider's error event after some chunks is the last event, with the provider's message and code", async () => {
      const res = await gw.fetch('/v1/chat/completions', chat('openai/error-event', { stream: true }));
      const events = await readSseData(res);
      expect(events).to.deep.equal([
        ...FIRST_TWO,
        JSON.stringify({ error: { message: STREAM_ERROR.error.message, type: 'provider_error', code: 'overloaded', param: null, provider: 'openai' } }),
      ]);
    });

    it('an error event quoting the credential the gateway sent is redacted, for the client and in the audit log', async () => {
      const res = await gw.fetch('/v1/chat/completions', chat('openai/error-event-quotes-key', { stream: true }));
      const id = res.headers.get('x-request-id')!;
      const events = await readSseData(res);
      const message = 'key [redacted] is over its quota';
      expect(events.at(-1)).to.equal(JSON.stringify({ error: { message, type: 'provider_error', code: 'quota', param: null, provider: 'openai' } }));
      const entry = (await (await gw.fetch(`/admin/audit/${id}`)).json()) as { error: { message: string } };
      expect(entry.error.message).to.equal(message);
      expect(JSON.stringify(entry)).not.to.include(OPENAI_KEY);
    });

    it('the openai SDK raises the in-stream error after the chunks it got', async () => {
      const stream = await gw.client().chat.completions.create({ model: 'openai/error-event', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      let chunks = 0;
      const err = await (async () => {
        for await (const _chunk of stream) chunks++;
      })().then(() => null, (e: unknown) => e);
      expect(chunks).to.equal(2);
      expect(err).to.be.instanceOf(APIError);
      expect((err as APIError).message).to.equal(STREAM_ERROR.error.message);
    });

    it('an error event before the first chunk is a plain JSON error', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('openai/error-first', { stream: true })), 502, {
        message: STREAM_ERROR.error.message,
        type: 'provider_error',
        code: 'overloaded',
        param: null,
        provider: 'openai',
      });
    });

    it('an error status on a stream request is a plain JSON error with that status', async () => {
      const res = await gw.fetch('/v1/chat/completions', chat('openai/rate-limited', { stream: true }));
      expect(res.headers.get('retry-after')).to.equal('7');
      await expectError(res, 429, { message: OPENAI_429.error.message, type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null, provider: 'openai' });
      await expectError(await gw.fetch('/v1/chat/completions', chat('openai/fail-500', { stream: true })), 502, {
        message: OPENAI_500.error.message,
        type: 'provider_error',
        code: 'server_error',
        param: null,
        provider: 'openai',
      });
    });

    it('a stream request that times out before the first byte is a plain 504', async () => {
      await expectError(await gw.fetch('/v1/chat/completions', chat('openai/slow', { stream: true })), 504, {
        message: "provider 'openai' timed out (no response headers in time)",
        type: 'provider_error',
        code: 'provider_timeout',
        param: null,
        provider: 'openai',
      });
    });
  });

  it('every answer carries x-request-id, successes included', async () => {
    for (const [path, init] of [['/healthz', {}], ['/v1/models', {}], ['/v1/chat/completions', chat('openai/gpt-4o-mini')]] as const) {
      const res = await gw.fetch(path, init);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('x-request-id'), path).to.match(REQUEST_ID);
      await res.arrayBuffer();
    }
  });
});

describe('errors: a provider that refuses connections @integration', () => {
  let gw: TestGateway;

  before(async () => {
    const port = await closedPort();
    gw = await startTestGateway({ env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` } });
  });
  after(() => gw.close());

  const refused = { message: "provider 'openai' unreachable or connection broken (ECONNREFUSED)", type: 'provider_error', code: null, param: null, provider: 'openai' };

  it('502 for a plain call', async () => {
    await expectError(await gw.fetch('/v1/chat/completions', chat('openai/gpt-4o-mini')), 502, refused);
  });

  it('502 as plain JSON for a stream request', async () => {
    await expectError(await gw.fetch('/v1/chat/completions', chat('openai/gpt-4o-mini', { stream: true })), 502, refused);
  });
});
