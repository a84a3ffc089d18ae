// A real HTTP server on 127.0.0.1 that plays a provider in integration tests: scripted routes
// (JSON, SSE with delays, errors, hangs), and a record of every request it received, headers
// included, so tests can assert what the gateway sent upstream.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RecordedRequest {
  method: string;
  /** Path with query string. */
  url: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
}

export type MockHandler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

export class MockProvider {
  readonly requests: RecordedRequest[] = [];
  /** Requests whose client went away before the response ended. */
  aborted = 0;
  readonly #routes = new Map<string, MockHandler>();
  readonly #server: Server;
  #url = '';

  private constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  /** `port` 0 picks a free one; a fixed port plays a provider that comes back where it was. */
  static async start(port = 0): Promise<MockProvider> {
    const mock = new MockProvider();
    await new Promise<void>((resolve, reject) => {
      mock.#server.once('error', reject);
      mock.#server.listen(port, '127.0.0.1', resolve);
    });
    mock.#url = `http://127.0.0.1:${(mock.#server.address() as AddressInfo).port}`;
    return mock;
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return this.#url;
  }

  on(method: string, path: string, handler: MockHandler): this {
    this.#routes.set(`${method} ${path}`, handler);
    return this;
  }

  last(): RecordedRequest {
    const r = this.requests[this.requests.length - 1];
    if (!r) throw new Error('the mock received no request');
    return r;
  }

  reset(): void {
    this.requests.length = 0;
    this.aborted = 0;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = body === '' ? undefined : JSON.parse(body);
    } catch {
      json = undefined;
    }
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    const recorded: RecordedRequest = { method: req.method ?? 'GET', url, path, headers: req.headers, body, json };
    this.requests.push(recorded);
    res.on('close', () => {
      if (!res.writableFinished) this.aborted++;
    });
    const handler = this.#routes.get(`${recorded.method} ${path}`);
    if (!handler) {
      sendJson(res, 404, { error: { message: `mock: no route ${recorded.method} ${path}`, type: 'invalid_request_error', code: 'unknown_url' } });
      return;
    }
    try {
      await handler(recorded, res, req);
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `mock failed: ${(err as Error).message}` } });
      else res.destroy();
    }
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Write SSE events one write each (as providers do), optionally spaced out; stops if the client leaves. */
export async function sendSse(res: ServerResponse, events: string[], delayMs = 0): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) {
    if (res.destroyed) return;
    res.write(event.endsWith('\n\n') ? event : event + '\n\n');
    if (delayMs > 0) await sleep(delayMs);
  }
  res.end();
}

/** Split a recorded SSE transcript into its events (each with its trailing blank line). */
export function splitSse(transcript: string): string[] {
  return transcript
    .replace(/\r\n/g, '\n')
    .split('\n\n')
    .filter((e) => e.trim() !== '')
    .map((e) => e + '\n\n');
}
