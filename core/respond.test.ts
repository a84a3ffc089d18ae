import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { RequestContext } from './context.js';
import type { Provider } from './provider.js';
import { jsonReply } from './reply.js';
import { sendJsonReply, setReplyHeaders, startEventStream } from './respond.js';
import type { RouteSpec } from './routes.js';
import { rawRequest } from '../test/helpers/net.js';

const ROUTE: RouteSpec = { method: 'POST', path: '/', access: 'public', operation: 'chat', body: 'json', streamFormat: null, handler: null };
const PROVIDER = { name: 'openai', type: 'openai', operations: {} } as Provider;
/** What no header can carry as it is: CR LF, a character above U+00FF, a lone surrogate. */
const ODD_MODEL = 'gpt\r\nx-injected: 1\u0100\ud800';
const ESCAPED = 'gpt\\u000d\\u000ax-injected: 1\\u0100\\ud800';

describe('respond: a target model no header can carry (defence in depth)', () => {
  let server: Server;
  let url: string;
  let answer: (ctx: RequestContext) => void;

  before(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const ctx = new RequestContext(req, res, ROUTE, {}, '/');
      ctx.target = { provider: PROVIDER, model: ODD_MODEL, id: `openai/${ODD_MODEL}`, metadata: null };
      req.resume();
      req.once('end', () => answer(ctx));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const cases: Array<[string, (ctx: RequestContext) => void]> = [
    ['a JSON answer', (ctx) => sendJsonReply(ctx, jsonReply({ ok: true }))],
    ['a JSON answer with extra headers', (ctx) => sendJsonReply(ctx, { ...jsonReply({ ok: true }), headers: { 'x-cache': 'MISS' } })],
    [
      'a stream',
      (ctx) => {
        setReplyHeaders(ctx, null);
        startEventStream(ctx, null);
        ctx.res.end('data: {"ok":true}\n\n');
      },
    ],
  ];
  for (const [what, send] of cases) {
    it(`${what} goes out, with the model escaped in x-gateway-model and no header injected`, async () => {
      answer = send;
      const res = await rawRequest(url, { method: 'POST', chunks: ['{}'] });
      expect(res.status).to.equal(200);
      expect(res.headers['x-gateway-model']).to.equal(ESCAPED);
      expect(res.headers['x-gateway-provider']).to.equal('openai');
      expect(res.headers).to.not.have.property('x-injected');
    });
  }
});

describe('respond: a JSON answer before node marked the request complete', () => {
  /** A request node has not marked complete yet (a quick answer), and a response that records its calls. */
  function quickAnswer(rawBody: Buffer | null, route: RouteSpec = ROUTE): string[] {
    const calls: string[] = [];
    // Its 'end' comes at once when listened for: the early answer ends then.
    const req = { complete: false, headers: {}, once: (event: string, listener: () => void) => event === 'end' && listener(), resume() {} } as unknown as IncomingMessage;
    const res = {
      writableEnded: false,
      writeHead: (status: number) => calls.push(`writeHead ${status}`),
      write: (chunk: Buffer | string) => calls.push(`write ${String(chunk)}`),
      end: (chunk?: Buffer | string) => calls.push(chunk === undefined ? 'end' : `end ${String(chunk)}`),
    } as unknown as ServerResponse;
    const ctx = new RequestContext(req, res, route, {}, '/');
    ctx.target = { provider: PROVIDER, model: 'gpt-4o-mini', id: 'openai/gpt-4o-mini', metadata: null };
    ctx.rawBody = rawBody;
    sendJsonReply(ctx, jsonReply({ ok: true }));
    return calls;
  }

  it('is ended with its payload at once: nothing of the body is left to arrive', () => {
    expect(quickAnswer(Buffer.from('{}'))).to.deep.equal(['writeHead 200', 'end {"ok":true}']);
  });

  it('is written, and ended once the rest of a body not read has arrived (an early answer: see early-answer.ts)', () => {
    expect(quickAnswer(null)).to.deep.equal(['writeHead 200', 'write {"ok":true}', 'end']);
  });

  it('waits for the rest of a raw-body route\'s upload: what a plugin captured of it is not all of it (passthrough)', () => {
    expect(quickAnswer(Buffer.from('first bytes'), { ...ROUTE, body: 'raw' })).to.deep.equal(['writeHead 200', 'write {"ok":true}', 'end']);
  });
});
