import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { readBody } from './body.js';

/** One request's body as readBody saw it, and whether it came at once. */
interface Seen {
  sync: boolean;
  body: string | null;
  error: string | null;
}

describe('readBody', () => {
  let server: Server;
  let port: number;
  let onRequest: (req: IncomingMessage) => Promise<Seen>;
  const seen: Array<Promise<Seen>> = [];

  before(async () => {
    server = createServer((req, res) => {
      const result = onRequest(req);
      seen.push(result);
      void result.finally(() => res.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Reads after one microtask, as the pipeline does after the auth stage. */
  function reader(limit: number): (req: IncomingMessage) => Promise<Seen> {
    return async (req) => {
      await Promise.resolve();
      const result = readBody(req, limit);
      const sync = !(result instanceof Promise);
      try {
        return { sync, body: (await result).toString('utf8'), error: null };
      } catch (err) {
        return { sync, body: null, error: (err as { code?: string }).code ?? String(err) };
      }
    };
  }

  /** Sends a raw request in parts, `gapMs` apart. */
  async function send(parts: string[], gapMs = 0): Promise<Seen> {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    for (const part of parts) {
      socket.write(part);
      if (gapMs > 0) await sleep(gapMs);
    }
    while (seen.length === 0) await sleep(5);
    const result = await seen.shift()!;
    socket.destroy();
    return result;
  }

  const head = (length: number): string => `POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${length}\r\n\r\n`;

  it('takes a body that arrived with the head at once, byte for byte', async () => {
    onRequest = reader(1024);
    const body = '{"model":"a/b","text":"héllo"}';
    expect(await send([head(Buffer.byteLength(body)) + body])).to.deep.equal({ sync: true, body, error: null });
  });

  it('collects a body that is still coming', async () => {
    onRequest = reader(1024);
    expect(await send([head(6) + 'abc', 'def'], 30)).to.deep.equal({ sync: false, body: 'abcdef', error: null });
  });

  it('an empty body is an empty buffer', async () => {
    onRequest = reader(1024);
    expect(await send([head(0)])).to.deep.equal({ sync: true, body: '', error: null });
  });

  it('refuses a body over the limit, declared, arrived or streamed', async () => {
    onRequest = reader(4);
    expect((await send([head(5) + 'abcde'])).error).to.equal('body_too_large');
    const chunked = 'POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n';
    expect((await send([chunked + '5\r\nabcde\r\n0\r\n\r\n'])).error).to.equal('body_too_large');
    expect((await send([chunked + '3\r\nabc\r\n', '3\r\ndef\r\n0\r\n\r\n'], 30)).error).to.equal('body_too_large');
  });
});
