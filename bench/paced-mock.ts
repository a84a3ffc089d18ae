// A stand-in for the OpenAI API whose streams take the time real ones take: `--events` chunks,
// one every `--interval-ms`, then the usage chunk and `data: [DONE]`. For measuring what many
// long streams held at once cost the gateway (bench/stream-memory.ts); every byte is built once.
//
// Usage: node --import tsx bench/paced-mock.ts --port <port> [--events 100] [--interval-ms 100]
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { exitWhenOrphaned } from './orphan-guard.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    events: { type: 'string', default: '100' },
    'interval-ms': { type: 'string', default: '100' },
  },
});
const port = Number(values.port);
const events = Number(values.events);
const intervalMs = Number(values['interval-ms']);
if (!Number.isInteger(port) || port <= 0) throw new Error('--port <port> is required');

const chunk = (delta: object, finish: string | null, usage: object | null = null): Buffer =>
  Buffer.from(
    `data: ${JSON.stringify({ id: 'chatcmpl-paced', object: 'chat.completion.chunk', created: 1769092737, model: 'gpt-4o-mini', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], usage })}\n\n`,
  );
const TOKEN = chunk({ content: ' token' }, null);
const FIRST = chunk({ role: 'assistant', content: '' }, null);
const LAST = Buffer.concat([
  chunk({}, 'stop'),
  chunk({}, null, { prompt_tokens: 41, completion_tokens: events, total_tokens: 41 + events }),
  Buffer.from('data: [DONE]\n\n'),
]);
const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'system' }] });

function stream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write(FIRST);
  let sent = 1;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    if (++sent < events) return void res.write(TOKEN);
    clearInterval(timer);
    res.end(LAST);
  }, intervalMs);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(MODELS);
    }
    if (req.method === 'POST' && req.url === '/v1/chat/completions' && Buffer.concat(chunks).includes('"stream":true')) return stream(res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"paced mock: streaming chat only","type":"invalid_request_error","param":null,"code":null}}');
  });
}

const server = createServer(handle);
server.keepAliveTimeout = 120_000;
// A provider takes a thousand connections at once; with node's default accept queue (511) the
// rest would be dropped and tried again by the gateway's TCP a second later: the mock's limit,
// not the gateway's.
server.listen({ port, host: '127.0.0.1', backlog: 4096 }, () => process.stdout.write(`paced mock listening on 127.0.0.1:${port}\n`));
exitWhenOrphaned();
process.on('SIGTERM', () => process.exit(0));
