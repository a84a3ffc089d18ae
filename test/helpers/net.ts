// Low-level HTTP for what fetch hides: a fresh connection per request (no keep-alive pool, so
// a refused connection is really refused), chunked uploads, and a port nothing listens on.
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { connect, createServer } from 'node:net';
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

export interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** The client socket's error (EPIPE, ECONNRESET), or null when the connection closed cleanly. */
  error: string | null;
}

/**
 * Writes `request` (bytes exactly as given, in `chunks` writes) on a fresh TCP connection and
 * keeps what comes back until the server closes; for requests node's parser must refuse, and
 * uploads the server answers before they are done. Fails after `timeoutMs`.
 */
export function rawExchange(port: number, chunks: Array<string | Buffer>, timeoutMs = 10_000): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | null = null;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; received: ${Buffer.concat(received).toString('latin1').slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(received).toString('latin1'), error });
    });
    socket.once('connect', () => {
      for (const chunk of chunks) if (!socket.destroyed) socket.write(chunk);
    });
  });
}

export interface ParsedResponse {
  statusLine: string;
  /** Header lines, names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 response with a content-length, from raw text. */
export function parseRawResponse(text: string): ParsedResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete response head in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { statusLine: statusLine!, headers, body: text.slice(end + 4) };
}
