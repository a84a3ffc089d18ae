// A stand-in for the OpenAI API that costs as little CPU as possible per request, so that in
// every measurement the cost is the gateway's, not the upstream's. Every response byte is
// built once at startup; per request it only parses the body (a gateway's upstream must see
// real JSON) and writes buffers.
//
// Usage: node --import tsx bench/mock-provider.ts --port <port>
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { exitWhenOrphaned } from './orphan-guard.js';
import { CHAT_PATH, STREAM_CHUNK_COUNT } from './workloads.js';

const ID = 'chatcmpl-BenchMock0000000000000000000';
const CREATED = 1769092737;
const MODEL = 'gpt-4o-mini-2024-07-18';
const FINGERPRINT = 'fp_29330a9688';

const USAGE = {
  prompt_tokens: 41,
  completion_tokens: STREAM_CHUNK_COUNT - 2,
  total_tokens: 41 + STREAM_CHUNK_COUNT - 2,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

// One token per content chunk; the first chunk carries the role and the last the finish reason.
const TOKENS = [
  'An', ' AI', ' gateway', ' sits', ' between', ' apps', ' and', ' model', ' providers', ',',
  ' adding', ' auth', ',', ' routing', ',', ' limits', ' and', ' accounting', '.',
];

const COMPLETION_TEXT = 'A gateway routes, meters and secures model calls.';

const completionBody = Buffer.from(
  JSON.stringify({
    id: ID,
    object: 'chat.completion',
    created: CREATED,
    model: MODEL,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: COMPLETION_TEXT, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { ...USAGE, completion_tokens: 10, total_tokens: 51 },
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  }),
);

function sseEvent(payload: unknown): Buffer {
  return Buffer.from(`data: ${JSON.stringify(payload)}\n\n`);
}

/** The 20 choice chunks; with include_usage OpenAI adds `"usage": null` to each of them. */
function choiceChunks(withUsageField: boolean): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < STREAM_CHUNK_COUNT; i++) {
    const last = i === STREAM_CHUNK_COUNT - 1;
    const delta = i === 0 ? { role: 'assistant', content: '', refusal: null } : last ? {} : { content: TOKENS[(i - 1) % TOKENS.length] };
    chunks.push(
      sseEvent({
        id: ID,
        object: 'chat.completion.chunk',
        created: CREATED,
        model: MODEL,
        service_tier: 'default',
        system_fingerprint: FINGERPRINT,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: last ? 'stop' : null }],
        ...(withUsageField ? { usage: null } : {}),
      }),
    );
  }
  return chunks;
}

const streamWithoutUsage = [...choiceChunks(false), Buffer.from('data: [DONE]\n\n')];
const streamWithUsage = [
  ...choiceChunks(true),
  sseEvent({
    id: ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MODEL,
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
    choices: [],
    usage: USAGE,
  }),
  Buffer.from('data: [DONE]\n\n'),
];

const modelsBody = Buffer.from(
  JSON.stringify({
    object: 'list',
    data: [
      { id: 'gpt-4o-mini', object: 'model', created: 1721172741, owned_by: 'system' },
      { id: 'gpt-4o-mini-2024-07-18', object: 'model', created: 1721172717, owned_by: 'system' },
      { id: 'gpt-4o', object: 'model', created: 1715367049, owned_by: 'system' },
    ],
  }),
);

// The headers a gateway sees from OpenAI and may read (request id, rate-limit state).
const COMMON_HEADERS = {
  'x-request-id': 'req_bench0000000000000000000000000',
  'openai-organization': 'bench-org',
  'openai-processing-ms': '412',
  'openai-version': '2020-10-01',
  'x-ratelimit-limit-requests': '30000',
  'x-ratelimit-remaining-requests': '29999',
  'x-ratelimit-limit-tokens': '150000000',
  'x-ratelimit-remaining-tokens': '149999950',
  'x-ratelimit-reset-requests': '2ms',
  'x-ratelimit-reset-tokens': '0s',
};

const JSON_HEADERS = { ...COMMON_HEADERS, 'content-type': 'application/json' };
const COMPLETION_HEADERS = { ...JSON_HEADERS, 'content-length': String(completionBody.length) };
const MODELS_HEADERS = { ...JSON_HEADERS, 'content-length': String(modelsBody.length) };
const SSE_HEADERS = { ...COMMON_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

function sendError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

interface StreamFlags {
  stream: boolean;
  includeUsage: boolean;
}

function readFlags(parsed: unknown): StreamFlags | null {
  if (typeof parsed !== 'object' || parsed === null) return null;
  const body = parsed as { stream?: unknown; stream_options?: unknown };
  const options = body.stream_options;
  const includeUsage =
    typeof options === 'object' && options !== null && (options as { include_usage?: unknown }).include_usage === true;
  return { stream: body.stream === true, includeUsage };
}

function answerChat(res: ServerResponse, raw: string): void {
  let flags: StreamFlags | null;
  try {
    flags = readFlags(JSON.parse(raw));
  } catch {
    flags = null;
  }
  if (flags === null) return sendError(res, 400, 'request body is not a JSON object');
  if (!flags.stream) {
    res.writeHead(200, COMPLETION_HEADERS);
    res.end(completionBody);
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  const events = flags.includeUsage ? streamWithUsage : streamWithoutUsage;
  // One write per event, as a real provider flushes each token as it is generated.
  const last = events.length - 1;
  for (let i = 0; i < last; i++) res.write(events[i]);
  res.end(events[last]);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url === undefined ? '' : req.url.split('?', 1)[0];
  if (req.method === 'POST' && path === CHAT_PATH) {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answerChat(res, chunks.length === 1 ? String(chunks[0]) : Buffer.concat(chunks).toString()));
    return;
  }
  req.resume();
  if (req.method === 'GET' && path === '/v1/models') {
    res.writeHead(200, MODELS_HEADERS);
    res.end(modelsBody);
    return;
  }
  sendError(res, 404, `no route for ${req.method ?? '?'} ${path ?? ''}`);
}

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0) throw new Error('--port <port> is required');

const server = createServer(handle);
// Clients keep pools of keep-alive connections for the whole run; never close them under load.
server.keepAliveTimeout = 120_000;
server.listen(port, values.host, () => process.stdout.write(`mock provider listening on ${values.host}:${port}\n`));
exitWhenOrphaned();
process.on('SIGTERM', () => process.exit(0));
