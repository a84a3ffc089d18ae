// Streams that end before their end: a client that goes away is audited 499 `client_closed`;
// the shutdown deadline sends the client the contract's error event before closing and is
// audited with `shutting_down`. Both keep the tokens the provider reported until then, and
// their cost says it is partial. (Before: audited 200, no error, 0 tokens, cost unknown; the
// client cut by shutdown got a stream that just stopped.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { ANTHROPIC_KEY, AnthropicMock, answers } from '../helpers/mock-anthropic.js';
import { openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { expectError } from '../helpers/errors.js';
import { auditEntry } from '../helpers/audit-entry.js';
import { waitFor } from '../helpers/net.js';
import { withPluginOptions } from '../helpers/plugins.js';
import { sseData } from '../helpers/sse.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

interface Entry {
  status: number;
  stream: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_usd: string | null;
  cost_source: string | null;
  error: { type: string; code: string | null; message: string; status: number } | null;
}

const SLOW_CHUNKS = 40;

/** An OpenAI-style stream of `SLOW_CHUNKS` content chunks 50 ms apart, usage last (as OpenAI sends it). */
function slowOpenAIStream(mock: MockProvider): void {
  mock.on('POST', '/v1/chat/completions', async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < SLOW_CHUNKS; i++) {
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: `w${i} ` }, finish_reason: null }] })}\n\n`);
      await sleep(50);
    }
    res.end(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 9, completion_tokens: 40, total_tokens: 49 } })}\n\ndata: [DONE]\n\n`);
  });
}

const chatStream = (model: string): RequestInit => ({ method: 'POST', body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'write' }] }) });

/** Reads `res` until `events` events arrived, then hangs up. */
async function readThenLeave(res: Response, events: number): Promise<void> {
  const reader = res.body!.getReader();
  let text = '';
  while (sseData(text).length < events) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
}

describe('streams cut by their client @integration', () => {
  let openai: MockProvider;
  let anthropic: AnthropicMock;
  let gw: TestGateway;

  before(async () => {
    openai = await startOpenAIMock();
    slowOpenAIStream(openai);
    anthropic = await AnthropicMock.start();
    gw = await startTestGateway({
      env: { ...openAIEnv(openai), ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: anthropic.url },
      config: { plugins: withPluginOptions('router', { model_overrides: { 'anthropic/claude-sonnet-4-20250514': { pricing: { currency: 'USD', input_per_mtok: 3, output_per_mtok: 15 } } } }) },
    });
  });
  after(async () => {
    await gw.close();
    await Promise.all([openai.close(), anthropic.close()]);
  });

  it('a stream whose client goes away is audited 499 client_closed, with the tokens reported so far and a partial cost', async () => {
    // message_start (10 prompt tokens, 3 output so far) comes at once, the rest 300 ms apart.
    anthropic.answerWith(answers.stream('recorded/anthropic/messages_stream.txt', 300));
    const res = await gw.fetch('/v1/chat/completions', chatStream('anthropic/claude-sonnet-4-20250514'));
    const id = res.headers.get('x-request-id')!;
    await readThenLeave(res, 1);
    const entry = await auditEntry<Entry>(gw, id);
    expect(entry).to.deep.include({
      status: 499,
      stream: true,
      input_tokens: 10,
      output_tokens: 3,
      // 10 x $3/Mtok + 3 x $15/Mtok: what the provider reported before the cut.
      cost_usd: '0.000075',
      cost_source: 'partial',
    });
    expect(entry.error).to.deep.include({ status: 499, code: 'client_closed', message: 'the client closed the connection before the stream ended' });
  });

  it('an OpenAI stream cut before its usage chunk is audited 499 with cost_source partial and no total', async () => {
    const res = await gw.fetch('/v1/chat/completions', chatStream('openai/gpt-4o-mini'));
    const id = res.headers.get('x-request-id')!;
    await readThenLeave(res, 3);
    const entry = await auditEntry<Entry>(gw, id);
    expect(entry).to.deep.include({ status: 499, input_tokens: 0, output_tokens: 0, cost_usd: null, cost_source: 'partial' });
    expect(entry.error?.code).to.equal('client_closed');
  });
});

describe('streams cut by the shutdown deadline @integration', () => {
  let openai: MockProvider;

  before(async () => {
    openai = await startOpenAIMock();
    slowOpenAIStream(openai);
  });
  after(() => openai.close());

  const cases = [
    { name: 'an upstream stream', model: 'openai/gpt-4o-mini', env: (): Record<string, string> => openAIEnv(openai), config: {} },
    { name: 'an in-process stream', model: 'demo/lorem', env: (): Record<string, string> => ({}), config: { providers: { demo: { enabled: true, stream_delay_ms: 50 } } } },
  ];
  for (const c of cases) {
    it(`${c.name} cut by the shutdown deadline ends with the contract's error event and is audited shutting_down, cost partial`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'sluice-test-'));
      const config = { server: { shutdown_timeout_ms: 150 }, ...c.config };
      let gw = await startTestGateway({ dataDir, config, env: c.env() });
      try {
        const res = await gw.fetch('/v1/chat/completions', chatStream(c.model));
        const id = res.headers.get('x-request-id')!;
        const transcript = res.text();
        await sleep(100);
        await gw.close();
        const events = sseData(await transcript);
        expect(events.length).to.be.above(1);
        expect(events).to.not.include('[DONE]');
        expect(JSON.parse(events[events.length - 1]!)).to.deep.equal({
          error: { message: 'the gateway shut down before the answer was complete', type: 'internal_error', code: 'shutting_down', param: null },
        });
        gw = await startTestGateway({ dataDir, config, env: c.env() });
        const entry = await auditEntry<Entry>(gw, id);
        expect(entry).to.deep.include({ status: 200, stream: true, cost_source: 'partial' });
        expect(entry.error).to.deep.include({ status: 503, type: 'internal_error', code: 'shutting_down' });
      } finally {
        await gw.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('a non-streamed call still waiting for its provider at the shutdown deadline is answered 503 shutting_down', async () => {
    const slow = await startOpenAIMock();
    slow.on('POST', '/v1/chat/completions', () => new Promise(() => {}));
    const gw = await startTestGateway({ env: openAIEnv(slow), config: { server: { shutdown_timeout_ms: 100 } } });
    try {
      const answer = gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }) });
      await waitFor(() => slow.requests.some((r) => r.path === '/v1/chat/completions'), 2000, 'the upstream call');
      await gw.close();
      await expectError(await answer, 503, { message: 'the gateway shut down before the answer was complete', type: 'internal_error', code: 'shutting_down', param: null });
    } finally {
      await gw.close();
      await slow.close();
    }
  });
});
