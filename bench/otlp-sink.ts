// An OTLP/HTTP receiver that accepts every export and keeps nothing: somewhere for the tracing
// plugin to send spans while the benchmark measures what tracing costs the gateway.
//   node --import tsx bench/otlp-sink.ts [--port 4318]
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: '4318' } } });
let exports = 0;
let bytes = 0;

const server = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});

server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`otlp sink on http://127.0.0.1:${values.port} (Ctrl-C to stop)\n`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {
  process.stdout.write(`\n${exports} exports, ${bytes} bytes\n`);
  server.close(() => process.exit(0));
});
