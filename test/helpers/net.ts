// Low-level HTTP for what fetch hides: a fresh connection per request (no keep-alive pool, so
// a refused connection is really refused), chunked uploads, and a port nothing listens on.
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Each element is one write; without a content-length header the upload is chunked. */
  chunks?: Array<string | Buffer>;
}

export function rawRequest(url: string, init: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.once('error', reject);
    });
    req.once('error', reject);
    // The server may answer (413) before the upload is done and stop reading; that is its right.
    for (const chunk of init.chunks ?? []) if (!req.destroyed) req.write(chunk);
    req.end();
  });
}

/** A port that was free a moment ago and has nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls until `check` holds, failing after `timeoutMs` with `what` in the message. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}
