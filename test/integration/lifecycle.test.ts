// Start and stop: health endpoints, graceful shutdown (in-flight streams finish, new
// connections are refused, a kept-alive one gets 503), and model discovery that never holds
// the gateway back.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { REQUEST_ID, expectError } from '../helpers/errors.js';
import { fixtureJson } from '../helpers/fixtures.js';
import { OPENAI_KEY } from '../helpers/mock-openai.js';
import { MockProvider, sendJson } from '../helpers/mock-provider.js';
import { closedPort, rawRequest, waitFor } from '../helpers/net.js';
import { withPluginOptions } from '../helpers/plugins.js';
import { sseData } from '../helpers/sse.js';
import { MASTER_KEY, startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

const EMPTY_CATALOG = fileURLToPath(new URL('../fixtures/empty-catalog.yaml', import.meta.url));
const SLOW_STREAM = JSON.stringify({ model: 'demo/lorem', stream: true, max_tokens: 20, messages: [{ role: 'user', content: 'write' }] });

function openAIAt(port: number): Record<string, string> {
  return { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` };
}

function postChat(body: string): string {
  return `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${MASTER_KEY}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** A plain TCP connection that keeps everything it receives (HTTP/1.1 by hand, keep-alive). */
function rawConnection(port: number): { socket: Socket; text(): string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('utf8');
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, text: () => received, closed };
}

/** The chat text of a chat SSE transcript, and whether it ended with [DONE]. */
function reassemble(transcript: string): { text: string; done: boolean } {
  const events = sseData(transcript);
  const done = events[events.length - 1] === '[DONE]';
  let text = '';
  for (const data of done ? events.slice(0, -1) : events) {
    const chunk = JSON.parse(data) as { choices: Array<{ delta: { content?: string } }> };
    text += chunk.choices[0]?.delta.content ?? '';
  }
  return { text, done };
}

describe('health and graceful shutdown @integration', () => {
  let gw: TestGateway;

  beforeEach(async () => {
    gw = await startTestGateway({ config: { providers: { demo: { stream_delay_ms: 25 } } } });
  });
  afterEach(() => gw.close());

  it('/healthz and /readyz answer 200 without a credential', async () => {
    const health = await fetch(`${gw.url}/healthz`);
    expect(health.status).to.equal(200);
    expect(health.headers.get('x-request-id')).to.match(REQUEST_ID);
    expect(await health.json()).to.deep.equal({ status: 'ok' });
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).to.equal(200);
    expect(await ready.json()).to.deep.equal({ status: 'ready' });
  });

  it('close() lets an in-flight stream finish to [DONE] and refuses new connections meanwhile', async () => {
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: SLOW_STREAM });
    expect(res.status).to.equal(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let transcript = decoder.decode((await reader.read()).value, { stream: true });

    const started = Date.now();
    const closing = gw.close();
    const refused = await rawRequest(`${gw.url}/healthz`).then(
      () => null,
      (e: unknown) => (e as NodeJS.ErrnoException).code,
    );
    expect(refused).to.equal('ECONNREFUSED');

    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      transcript += decoder.decode(value, { stream: true });
    }
    const { text, done } = reassemble(transcript);
    expect(done).to.equal(true);
    expect(text).to.equal('Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor.');
    await closing;
    // Drained, not cut at the 2 s shutdown timeout of the test config.
    expect(Date.now() - started).to.be.below(1500);
  });

  it('answers 503 shutting_down on a kept-alive connection that sends a new request during the drain', async () => {
    // Connection B finishes its short stream while A's longer one keeps the drain going; B
    // stays open (keep-alive), so its next request reaches the gateway and is refused.
    const port = Number(new URL(gw.url).port);
    const a = rawConnection(port);
    const b = rawConnection(port);
    a.socket.write(postChat(SLOW_STREAM));
    b.socket.write(postChat(JSON.stringify({ model: 'demo/lorem', stream: true, max_tokens: 3, messages: [{ role: 'user', content: 'write' }] })));
    await waitFor(() => a.text().includes('data: ') && b.text().includes('data: '), 2000, 'both streams to start');
    const closing = gw.close();
    await waitFor(() => b.text().includes('data: [DONE]'), 2000, 'the short stream to finish');
    const before = b.text().length;
    b.socket.write('GET /v1/models HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    await Promise.all([b.closed, a.closed, closing]);
    expect(a.text()).to.include('data: [DONE]');
    const refused = b.text().slice(before);
    const [head, body] = refused.split('\r\n\r\n') as [string, string];
    const lines = head.split('\r\n');
    expect(lines[0]).to.equal('HTTP/1.1 503 Service Unavailable');
    expect(lines).to.include('connection: close');
    expect(lines).to.include('retry-after: 1');
    expect(lines.find((l) => l.startsWith('x-request-id: '))?.slice('x-request-id: '.length)).to.match(REQUEST_ID);
    expect(JSON.parse(body)).to.deep.equal({ error: { message: 'the gateway is shutting down', type: 'internal_error', code: 'shutting_down', param: null } });
  });

  it('cuts a stream that outlives server.shutdown_timeout_ms, still closes, and keeps its audit entry', async () => {
    await gw.close();
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-test-'));
    const config = { server: { shutdown_timeout_ms: 100 }, providers: { demo: { stream_delay_ms: 200 } } };
    gw = await startTestGateway({ dataDir, config });
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: SLOW_STREAM });
    const id = res.headers.get('x-request-id')!;
    const body = res.text().then(
      (t) => t,
      () => '',
    );
    await sleep(50);
    const started = Date.now();
    await gw.close();
    expect(Date.now() - started).to.be.below(1000);
    // Cut, not finished: the last event is the contract's error, with no [DONE].
    const events = sseData(await body);
    expect(JSON.parse(events[events.length - 1]!)).to.have.nested.property('error.code', 'shutting_down');
    // Nothing accepted is lost: the cut request was logged before the process let go.
    gw = await startTestGateway({ dataDir, config });
    try {
      const entry = await gw.fetch(`/admin/audit/${id}`);
      expect(entry.status).to.equal(200);
      expect(await entry.json()).to.include({ id, model: 'demo/lorem', stream: true });
    } finally {
      await gw.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('model discovery at start @integration', () => {
  const router = (discovery: Record<string, number>) => ({ plugins: withPluginOptions('router', { discovery }) });

  it('a provider that is down at start does not stop the gateway, and is listed once it is back', async () => {
    const port = await closedPort();
    const gw = await startTestGateway({ env: openAIAt(port), config: router({ first_list_wait_ms: 1000, retry_interval_s: 1 }) });
    let mock: MockProvider | null = null;
    const openAIIds = async (): Promise<string[]> => {
      const res = await gw.fetch('/v1/models');
      expect(res.status).to.equal(200);
      const list = (await res.json()) as { object: string; data: Array<{ id: string }> };
      expect(list.object).to.equal('list');
      return list.data.map((m) => m.id).filter((id) => id.startsWith('openai/'));
    };
    try {
      const started = Date.now();
      // Until the provider answers, only its catalog entries stand in (config/catalog.yaml).
      const before = await openAIIds();
      expect(Date.now() - started).to.be.below(1000);
      expect(before).to.not.include('openai/recovered-model');
      // A model call meanwhile is the provider's 502, not a 404: the prefix is known.
      await expectError(await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }) }), 502, {
        message: "provider 'openai' unreachable or connection broken (ECONNREFUSED)",
        type: 'provider_error',
        code: null,
        param: null,
        provider: 'openai',
      });

      mock = await MockProvider.start(port);
      mock.on('GET', '/v1/models', (_req, r) => sendJson(r, 200, { object: 'list', data: [{ id: 'recovered-model', object: 'model', created: 1700000000, owned_by: 'system' }] }));
      let after: string[] = [];
      await waitFor(
        async () => {
          after = await openAIIds();
          return after.includes('openai/recovered-model');
        },
        2500,
        'the recovered provider to be listed',
      );
      // Once it answered, the provider's own list is what is served.
      expect(after).to.deep.equal(['openai/recovered-model']);
    } finally {
      await gw.close();
      await mock?.close();
    }
  });

  it('with an empty catalog, a provider that is down lists no model at all', async () => {
    const gw = await startTestGateway({
      env: openAIAt(await closedPort()),
      config: { plugins: withPluginOptions('router', { catalog: EMPTY_CATALOG, discovery: { first_list_wait_ms: 300 } }) },
    });
    try {
      const res = await gw.fetch('/v1/models');
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ object: 'list', data: [] });
    } finally {
      await gw.close();
    }
  });

  it('a provider that hangs delays GET /v1/models by first_list_wait_ms at most, and does not hold up shutdown', async () => {
    const mock = await MockProvider.start();
    mock.on('GET', '/v1/models', async (_req, r) => {
      await sleep(5000);
      if (!r.destroyed) sendJson(r, 200, fixtureJson('recorded/openai/models.json'));
    });
    const gw = await startTestGateway({
      env: openAIAt(Number(new URL(mock.url).port)),
      config: { plugins: withPluginOptions('router', { catalog: EMPTY_CATALOG, discovery: { first_list_wait_ms: 200, timeout_ms: 4000 } }) },
    });
    try {
      const started = Date.now();
      const res = await gw.fetch('/v1/models');
      expect(await res.json()).to.deep.equal({ object: 'list', data: [] });
      const elapsed = Date.now() - started;
      // It waited for the first list, but not for the 4 s discovery timeout or the 5 s answer.
      expect(elapsed).to.be.at.least(150);
      expect(elapsed).to.be.below(1500);
    } finally {
      const closing = Date.now();
      await gw.close();
      // Shutdown aborts the discovery call instead of waiting out its timeout.
      expect(Date.now() - closing).to.be.below(2000);
      await mock.close();
    }
  });
});
