// An OTLP/HTTP receiver that accepts every export and keeps nothing: somewhere for the tracing
// plugin to send spans while the benchmark measures what tracing costs the gateway. It counts
// the spans it took (each has one "spanId" member), so a run can show that none was dropped.
//   node --import tsx bench/otlp-sink.ts [--port 4318]
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: '4318' } } });
const SPAN_ID = Buffer.from('"spanId":');
let exports = 0;
let spans = 0;
let bytes = 0;

function countSpans(body: Buffer): number {
  let count = 0;
  for (let at = body.indexOf(SPAN_ID); at !== -1; at = body.indexOf(SPAN_ID, at + SPAN_ID.length)) count++;
  return count;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
  });
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    exports++;
    bytes += body.length;
    spans += countSpans(body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});

server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`otlp sink on http://127.0.0.1:${values.port} (Ctrl-C to stop)\n`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {
  process.stdout.write(`\n${exports} exports, ${spans} spans, ${bytes} bytes\n`);
  server.close(() => process.exit(0));
});
