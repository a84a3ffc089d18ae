// A client that goes away cancels the upstream call: mid-stream, and while a non-streaming
// call is still waiting for the provider. The mock counts requests whose client left
// (`mock.aborted`) and how many chunks it managed to write.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { APIUserAbortError } from 'openai';
import { fixtureJson } from '../helpers/fixtures.js';
import { openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { sendJson } from '../helpers/mock-provider.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { waitFor } from '../helpers/net.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

const CHUNKS = 50;
const CHUNK_INTERVAL_MS = 20;

function chunk(i: number): string {
  const value = { id: 'chatcmpl-slow', object: 'chat.completion.chunk', created: 1769092764, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: `w${i} ` }, finish_reason: null }] };
  return `data: ${JSON.stringify(value)}\n\n`;
}

describe('abort propagation @integration', () => {
  let mock: MockProvider;
  let gw: TestGateway;
  /** Chunks the slow stream wrote before its client went away. */
  let written = 0;

  before(async () => {
    mock = await startOpenAIMock();
    mock.on('POST', '/v1/chat/completions', async (req, res) => {
      const body = req.json as { stream?: boolean };
      if (!body.stream) {
        // The provider "thinks" for longer than any test waits.
        await sleep(3000);
        if (!res.destroyed) sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // A head, then nothing for longer than any test waits: the gateway is still priming the stream.
      if ((body as { messages: Array<{ content: string }> }).messages[0]!.content === 'head only') {
        res.flushHeaders();
        return;
      }
      for (let i = 0; i < CHUNKS; i++) {
        if (res.destroyed) return;
        res.write(chunk(i));
        written++;
        await sleep(CHUNK_INTERVAL_MS);
      }
      res.end('data: [DONE]\n\n');
    });
    gw = await startTestGateway({ env: openAIEnv(mock) });
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    written = 0;
  });

  it('a client that aborts a stream mid-way aborts the upstream request, which stops being written', async () => {
    const controller = new AbortController();
    const stream = await gw.client().chat.completions.create(
      { model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'count slowly' }] },
      { signal: controller.signal },
    );
    let received = 0;
    const consumed = (async () => {
      for await (const _chunk of stream) {
        if (++received === 3) controller.abort();
      }
    })().then(() => null, (e: unknown) => e);
    await waitFor(() => mock.aborted === 1, 1000, 'the upstream request to be aborted');
    // The SDK ends an aborted stream's iteration quietly.
    expect(await consumed).to.equal(null);
    expect(received).to.equal(3);
    const atAbort = written;
    expect(atAbort).to.be.below(CHUNKS / 2);
    // Nothing more goes out upstream once the gateway hung up.
    await sleep(CHUNK_INTERVAL_MS * 5);
    expect(written).to.equal(atAbort);
    expect(mock.requests.filter((r) => r.path === '/v1/chat/completions')).to.have.length(1);
  });

  it('a client that aborts while a non-streaming call waits for the provider aborts the upstream request', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'think hard' }] }, { signal: controller.signal });
    const settled = call.then(() => null, (e: unknown) => e);
    await waitFor(() => mock.requests.some((r) => r.path === '/v1/chat/completions'), 1000, 'the upstream request');
    controller.abort();
    expect(await settled).to.be.instanceOf(APIUserAbortError);
    await waitFor(() => mock.aborted === 1, 1000, 'the upstream request to be aborted');
    expect(Date.now() - started).to.be.below(2000);
  });

  it('a client that aborts after the provider\'s head but before any event aborts the upstream request', async () => {
    const controller = new AbortController();
    const call = gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'head only' }] }), signal: controller.signal });
    const settled = call.then(() => null, (e: unknown) => (e as Error).name);
    await waitFor(() => mock.requests.some((r) => r.path === '/v1/chat/completions'), 1000, 'the upstream request');
    await sleep(50);
    controller.abort();
    expect(await settled).to.equal('AbortError');
    await waitFor(() => mock.aborted === 1, 1000, 'the upstream request to be aborted');
  });

  it('the gateway is still healthy afterwards and serves the next stream to its end', async () => {
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'again' }] }) });
    const text = await res.text();
    expect(text.endsWith('data: [DONE]\n\n')).to.equal(true);
    expect(written).to.equal(CHUNKS);
    expect(mock.aborted).to.equal(0);
  });
});
