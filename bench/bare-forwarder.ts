// The least work a Node gateway can do: accept a request, send the same bytes upstream over a
// pooled keep-alive connection, and copy the response back without looking at it. No auth, no
// parsing, no accounting. Its CPU per request is the floor Sluice is compared against.
//
// Usage: node --import tsx bench/bare-forwarder.ts --port <port> --upstream http://127.0.0.1:<port>
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { Pool, type Dispatcher } from 'undici';
import { exitWhenOrphaned } from './orphan-guard.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    upstream: { type: 'string' },
    'api-key': { type: 'string', default: 'sk-bench-upstream' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0) throw new Error('--port <port> is required');
if (values.upstream === undefined) throw new Error('--upstream <origin> is required');

const upstreamAuthorization = `Bearer ${values['api-key']}`;
// Enough connections that requests never queue for one at the benchmark's concurrency of 50.
const pool = new Pool(values.upstream, { connections: 128, pipelining: 1, keepAliveTimeout: 120_000 });

// Hop-by-hop headers describe one connection and must not be copied onto another.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection']);

function responseHeaders(upstream: IncomingHttpHeaders | Record<string, string | string[] | undefined>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

function fail(res: ServerResponse, error: Error): void {
  if (res.headersSent) {
    res.destroy(error);
    return;
  }
  const body = JSON.stringify({ error: { message: `upstream failed: ${error.message}`, type: 'provider_error' } });
  res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function forward(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): void {
  const contentType = req.headers['content-type'];
  let upstream: Dispatcher.DispatchController | null = null;
  // undici's dispatch handler is its lowest-level API: response bytes go from the upstream
  // socket to res.write with no stream objects in between, pausing when the client is slow.
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(controller) {
      upstream = controller;
    },
    onResponseStart(_controller, statusCode, headers) {
      res.writeHead(statusCode, responseHeaders(headers));
    },
    onResponseData(controller, chunk) {
      if (!res.write(chunk)) {
        controller.pause();
        res.once('drain', () => controller.resume());
      }
    },
    onResponseEnd() {
      res.end();
    },
    onResponseError(_controller, error) {
      fail(res, error);
    },
  };
  // A client that hangs up must not leave the upstream request running: any real gateway pays this.
  res.once('close', () => {
    if (!res.writableFinished) upstream?.abort(new Error('client closed the connection'));
  });
  pool.dispatch(
    {
      method: req.method === 'POST' ? 'POST' : 'GET',
      path: req.url ?? '/',
      headers: {
        authorization: upstreamAuthorization,
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      },
      body,
    },
    handler,
  );
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'POST') {
    req.resume();
    forward(req, res, undefined);
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => forward(req, res, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
}

const server = createServer(handle);
server.keepAliveTimeout = 120_000;
server.listen(port, values.host, () =>
  process.stdout.write(`bare forwarder listening on ${values.host}:${port} -> ${values.upstream}\n`),
);
exitWhenOrphaned();
process.on('SIGTERM', () => process.exit(0));
