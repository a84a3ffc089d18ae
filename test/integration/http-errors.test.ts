// HTTP-level errors (issue 13, item 7), over raw TCP sockets: what node's parser refuses gets
// the contract's envelope with an x-request-id; an early 413 or 401 reaches a client that sends
// `Connection: close` with a large body; a request on a kept-alive connection at the moment of
// shutdown gets an answer, not a reset.
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { REQUEST_ID } from '../helpers/errors.js';
import { fixtureJson } from '../helpers/fixtures.js';
import { openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { sendJson } from '../helpers/mock-provider.js';
import { parseRawResponse, rawExchange, waitFor } from '../helpers/net.js';
import type { ParsedResponse } from '../helpers/net.js';
import { MASTER_KEY, startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

const BODY_LIMIT = 2048;
const HOST = 'host: 127.0.0.1\r\n';

function expectEnvelope(res: ParsedResponse, statusLine: string, error: Record<string, unknown>): void {
  expect(res.statusLine).to.equal(statusLine);
  expect(res.headers['x-request-id']).to.match(REQUEST_ID);
  expect(res.headers['content-type']).to.equal('application/json');
  expect(res.headers['content-length']).to.equal(String(Buffer.byteLength(res.body)));
  expect(JSON.parse(res.body)).to.deep.equal({ error });
}

const MALFORMED = { message: 'the request is not valid HTTP/1.1', type: 'invalid_request_error', code: 'malformed_request', param: null };

describe('HTTP-level errors @integration', () => {
  let gw: TestGateway;
  let port: number;

  before(async () => {
    gw = await startTestGateway({ config: { server: { body_limit_bytes: BODY_LIMIT } } });
    port = Number(new URL(gw.url).port);
  });
  after(() => gw.close());

  describe('requests the HTTP parser refuses get the envelope, an x-request-id, and the connection closes', () => {
    const cases: Array<[string, string | Buffer]> = [
      ['a bad Content-Length', `POST /v1/chat/completions HTTP/1.1\r\n${HOST}content-length: 12abc\r\n\r\n{}`],
      ['both Content-Length and Transfer-Encoding', `POST /v1/chat/completions HTTP/1.1\r\n${HOST}content-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
      ['a bad chunk size', `POST /v1/chat/completions HTTP/1.1\r\n${HOST}transfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
      ['an unknown method', `FROB /healthz HTTP/1.1\r\n${HOST}\r\n`],
      ['a CR inside a header value', `GET /healthz HTTP/1.1\r\n${HOST}x-note: a\rb\r\n\r\n`],
      ['a LF inside a header value', `GET /healthz HTTP/1.1\r\n${HOST}x-note: a\nb\r\n\r\n`],
      ['a NUL inside a header value', `GET /healthz HTTP/1.1\r\n${HOST}x-note: a\0b\r\n\r\n`],
      ['a non-ASCII path', Buffer.concat([Buffer.from('GET /caf'), Buffer.from([0xc3, 0xa9]), Buffer.from(` HTTP/1.1\r\n${HOST}\r\n`)])],
    ];
    for (const [what, request] of cases) {
      it(`${what}: 400 malformed_request`, async () => {
        const { received, error } = await rawExchange(port, [request]);
        expect(error).to.equal(null);
        const res = parseRawResponse(received);
        expectEnvelope(res, 'HTTP/1.1 400 Bad Request', MALFORMED);
        expect(res.headers['connection']).to.equal('close');
      });
    }

    it('headers over node\'s limit: 431 headers_too_large', async () => {
      const { received, error } = await rawExchange(port, [`GET /healthz HTTP/1.1\r\n${HOST}x-big: ${'a'.repeat(20_000)}\r\n\r\n`]);
      expect(error).to.equal(null);
      const res = parseRawResponse(received);
      expectEnvelope(res, 'HTTP/1.1 431 Request Header Fields Too Large', {
        message: 'the request headers are too large',
        type: 'invalid_request_error',
        code: 'headers_too_large',
        param: null,
      });
      expect(res.headers['connection']).to.equal('close');
    });
  });

  describe('an early answer reaches a client that sends Connection: close with a large body', () => {
    const upload = (auth: boolean, size: number): Array<string | Buffer> => [
      `POST /v1/chat/completions HTTP/1.1\r\n${HOST}${auth ? `authorization: Bearer ${MASTER_KEY}\r\n` : ''}content-type: application/json\r\n` +
        `content-length: ${size}\r\nconnection: close\r\n\r\n`,
      // Written in pieces, as a client streams an upload: most of it arrives after the answer.
      ...Array.from({ length: size / 65_536 }, () => Buffer.alloc(65_536, 0x20)),
    ];

    it('413 body_too_large, 10 times in a row, read whole with no reset', async () => {
      for (let i = 0; i < 10; i++) {
        const { received, error } = await rawExchange(port, upload(true, 4 * 1024 * 1024));
        expect(error, `try ${i + 1}`).to.equal(null);
        const res = parseRawResponse(received);
        expectEnvelope(res, 'HTTP/1.1 413 Payload Too Large', {
          message: `request body exceeds the limit of ${BODY_LIMIT} bytes`,
          type: 'invalid_request_error',
          code: 'body_too_large',
          param: null,
        });
        expect(res.headers['connection']).to.equal('close');
      }
    });

    it('401 invalid_api_key, 10 times in a row, read whole with no reset', async () => {
      for (let i = 0; i < 10; i++) {
        const { received, error } = await rawExchange(port, upload(false, 4 * 1024 * 1024));
        expect(error, `try ${i + 1}`).to.equal(null);
        const res = parseRawResponse(received);
        expectEnvelope(res, 'HTTP/1.1 401 Unauthorized', { message: 'missing bearer credential: send Authorization: Bearer <key>', type: 'authentication_error', code: 'invalid_api_key', param: null });
        expect(res.headers['connection']).to.equal('close');
      }
    });
  });
});

/** A kept-alive connection that has been answered once and sits idle. */
async function idleConnection(port: number): Promise<{ socket: Socket; text(): string; closed: Promise<string | null> }> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let error: string | null = null;
  socket.on('data', (c: Buffer) => {
    received += c.toString('latin1');
  });
  socket.on('error', (e: NodeJS.ErrnoException) => {
    error ??= e.code ?? e.message;
  });
  const closed = new Promise<string | null>((resolve) => socket.once('close', () => resolve(error)));
  socket.write(`GET /healthz HTTP/1.1\r\n${HOST}\r\n`);
  await waitFor(() => received.endsWith('{"status":"ok"}'), 2000, 'the first answer');
  received = '';
  return { socket, text: () => received, closed };
}

describe('shutdown and kept-alive connections @integration', () => {
  it('a request written on an idle kept-alive connection as close() starts gets 503 shutting_down, connection: close (10 connections)', async () => {
    const gw = await startTestGateway({ config: { server: { drain_grace_ms: 500 } } });
    const port = Number(new URL(gw.url).port);
    const connections = await Promise.all(Array.from({ length: 10 }, () => idleConnection(port)));
    // The request is on its way (written, not yet read by the server) when the drain starts.
    for (const c of connections) c.socket.write(`GET /v1/models HTTP/1.1\r\n${HOST}authorization: Bearer ${MASTER_KEY}\r\n\r\n`);
    const closing = gw.close();
    const errors = await Promise.all(connections.map((c) => c.closed));
    await closing;
    expect(errors).to.deep.equal(Array(10).fill(null));
    for (const c of connections) {
      const res = parseRawResponse(c.text());
      expectEnvelope(res, 'HTTP/1.1 503 Service Unavailable', { message: 'the gateway is shutting down', type: 'internal_error', code: 'shutting_down', param: null });
      expect(res.headers['connection']).to.equal('close');
      expect(res.headers['retry-after']).to.equal('1');
    }
  });

  it('a request in flight when close() starts is answered in full with connection: close, and its connection then closes', async () => {
    const mock = await startOpenAIMock();
    mock.on('POST', '/v1/chat/completions', async (_req, res) => {
      await sleep(300);
      sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
    });
    const gw = await startTestGateway({ env: openAIEnv(mock) });
    try {
      const c = await idleConnection(Number(new URL(gw.url).port));
      const body = JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      c.socket.write(`POST /v1/chat/completions HTTP/1.1\r\n${HOST}authorization: Bearer ${MASTER_KEY}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
      await waitFor(() => mock.requests.some((r) => r.method === 'POST'), 2000, 'the provider call');
      const closing = gw.close();
      expect(await c.closed).to.equal(null);
      await closing;
      const res = parseRawResponse(c.text());
      expect(res.statusLine).to.equal('HTTP/1.1 200 OK');
      expect(res.headers['connection']).to.equal('close');
      expect(JSON.parse(res.body)).to.deep.equal(fixtureJson('recorded/openai/chat_completion.json'));
    } finally {
      await gw.close();
      await mock.close();
    }
  });
});
