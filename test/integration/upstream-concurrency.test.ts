// Many calls in flight to one provider: with the default config none of them waits inside the
// gateway; with an operator's connection cap, a call that waits longer than the queue time gets
// the documented 503, the operator's log says so once, and the attempt records the wait.
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import OpenAI, { APIError } from 'openai';
import { kept } from '../fixtures/plugins/context-keeper.js';
import { fixtureJson } from '../helpers/fixtures.js';
import { memoryLogger } from '../helpers/memory-logger.js';
import { MockProvider, sendJson } from '../helpers/mock-provider.js';
import { OPENAI_KEY } from '../helpers/mock-openai.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

const CONTEXT_KEEPER = fileURLToPath(new URL('../fixtures/plugins/context-keeper.ts', import.meta.url));
const MODEL = 'openai/gpt-4o-mini';
const CHUNK = { id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 1769092764, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] };
const COMPLETION = { id: 'chatcmpl-1', object: 'chat.completion', created: 1769092764, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };

/**
 * A provider whose streams send their first event at once and then stay open until released,
 * so that every stream of a test is in flight at the same time. JSON calls answer at once.
 */
class HeldStreams {
  readonly mock: MockProvider;
  open = 0;
  maxOpen = 0;
  #release: Array<() => void> = [];

  private constructor(mock: MockProvider) {
    this.mock = mock;
    mock.on('GET', '/v1/models', (_req, res) => sendJson(res, 200, fixtureJson('recorded/openai/models.json')));
    mock.on('POST', '/v1/chat/completions', async (req, res) => {
      if ((req.json as { stream?: boolean }).stream !== true) return sendJson(res, 200, COMPLETION);
      this.open++;
      this.maxOpen = Math.max(this.maxOpen, this.open);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(CHUNK)}\n\n`);
      await new Promise<void>((resolve) => this.#release.push(resolve));
      this.open--;
      res.end('data: [DONE]\n\n');
    });
  }

  static async start(): Promise<HeldStreams> {
    return new HeldStreams(await MockProvider.start());
  }

  get env(): Record<string, string> {
    return { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${this.mock.url}/v1` };
  }

  /** Ends the oldest held stream (or all of them). */
  release(all = false): void {
    for (const end of all ? this.#release.splice(0) : this.#release.splice(0, 1)) end();
  }
}

/** Opens a stream and resolves, once its first chunk arrived, with the ms that took and the stream to finish. */
async function firstChunk(client: OpenAI): Promise<{ ms: number; rest: Promise<number> }> {
  const started = performance.now();
  const stream = await client.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] });
  const chunks = stream[Symbol.asyncIterator]();
  const first = await chunks.next();
  expect(first.value).to.deep.include({ id: 'chatcmpl-held' });
  const ms = performance.now() - started;
  const rest = (async () => {
    let n = 1;
    for (let c = await chunks.next(); !c.done; c = await chunks.next()) n++;
    return n;
  })();
  return { ms, rest };
}

describe('upstream concurrency: no silent queue behind a provider @integration', function () {
  this.timeout(180_000);
  let provider: HeldStreams;

  before(async () => {
    provider = await HeldStreams.start();
  });
  after(() => provider.mock.close());

  it('600 concurrent streams through the default config are all open upstream at once, each streaming within a second of its arrival', async () => {
    const gw = await startTestGateway({ env: provider.env, config: { plugins: [...defaultPlugins(), { path: CONTEXT_KEEPER }] } });
    kept.length = 0;
    try {
      // A busy machine may take longer than the helper client's 15 s to send 600 calls from this one process.
      const client = new OpenAI({ baseURL: gw.baseURL, apiKey: gw.masterKey, maxRetries: 0, timeout: 100_000 });
      const STREAMS = 600;
      let firstChunks = 0;
      const streams = Array.from({ length: STREAMS }, () => firstChunk(client).then((s) => (firstChunks++, s)));
      // Under a connection cap the streams past it never start (none of the held ones ends):
      // fail with a count rather than a mocha timeout.
      const all = Promise.all(streams);
      await Promise.race([all, sleep(90_000)]);
      expect(firstChunks, 'streams that got their first chunk').to.equal(STREAMS);
      expect(provider.open, 'streams open upstream at once').to.equal(STREAMS);
      provider.release(true);
      const counts = await Promise.all((await all).map((s) => s.rest));
      expect(counts.every((n) => n === 1)).to.equal(true);
      // First-byte times as the gateway measured them, from each request's arrival: on a busy
      // machine the client's own clock also counts the time its 600 calls queue in this process.
      const firstBytes = kept.map((k) => k.ctx.firstByteMs!);
      expect(firstBytes).to.have.length(STREAMS);
      const slowest = Math.max(...firstBytes);
      expect(slowest, `slowest first byte ${slowest.toFixed(0)} ms after arrival`).to.be.below(1000);
      expect(kept.every((k) => k.attempts[0]!.queued_ms === 0)).to.equal(true);
    } finally {
      provider.release(true);
      await gw.close();
    }
  });

  describe('with a cap of 2 connections and a queue time of 300 ms', () => {
    let gw: TestGateway;
    const log = memoryLogger('warn');

    before(async () => {
      gw = await startTestGateway({
        env: provider.env,
        logger: log.logger,
        config: { upstream: { connections_per_origin: 2, queue_timeout_ms: 300 }, plugins: [...defaultPlugins(), { path: CONTEXT_KEEPER }] },
      });
    });
    after(async () => {
      provider.release(true);
      await gw.close();
    });
    beforeEach(() => {
      kept.length = 0;
      log.lines.length = 0;
    });

    it('a call that waits longer than the queue time gets 503 provider_error in the envelope, with provider and retry-after', async () => {
      const held = await Promise.all([firstChunk(gw.client()), firstChunk(gw.client())]);
      const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }) });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(await res.json()).to.deep.equal({
        error: { message: "all 2 connections to provider 'openai' stayed busy for 300 ms; try again later", type: 'provider_error', code: 'upstream_queue_timeout', param: null, provider: 'openai' },
      });
      // The same through the SDK, in the same episode: still one line in the operator's log.
      const err = await gw.client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }).then(() => null, (e: unknown) => e);
      expect(err).to.be.instanceOf(APIError);
      expect((err as APIError).status).to.equal(503);
      expect(log.lines).to.have.length(1);
      expect(log.lines[0]).to.match(/^warn upstream http:\/\/127\.0\.0\.1:\d+ \(provider 'openai'\): all 2 connections are busy; calls wait up to 300 ms for one, then get 503/);
      // The refused calls' attempts record their wait, and so does the context.
      const refused = kept.filter((k) => k.ctx.status === 503);
      expect(refused).to.have.length(2);
      for (const { ctx, attempts } of refused) {
        expect(ctx.queuedMs).to.be.at.least(299);
        expect(attempts).to.have.length(1);
        expect(attempts[0]).to.deep.include({ provider: 'openai', status: 503, queued_ms: ctx.queuedMs });
      }
      provider.release(true);
      await Promise.all(held.map((h) => h.rest));
    });

    it('a call that gets a connection within the queue time goes through, and its attempt records the wait', async () => {
      const held = await Promise.all([firstChunk(gw.client()), firstChunk(gw.client())]);
      const answered = gw.client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
      // Once the call waits (as the metrics plugin will read it), a held stream ends 100 ms later.
      const upstream = gw.running.gateway.upstream;
      while (upstream.queueStats()[0]?.waiting !== 1) await sleep(5);
      expect(upstream.queueStats()).to.deep.equal([{ origin: provider.mock.url, cap: 2, active: 2, waiting: 1, waitedTotal: 3, refusedTotal: 2 }]);
      await sleep(100);
      provider.release();
      const answer = await answered;
      expect(answer.choices[0]!.message.content).to.equal('ok');
      const waited = kept.filter((k) => k.ctx.queuedMs > 0);
      expect(waited).to.have.length(1);
      expect(waited[0]!.ctx.queuedMs).to.be.within(100, 300);
      expect(waited[0]!.attempts[0]).to.deep.include({ status: 200, queued_ms: waited[0]!.ctx.queuedMs });
      provider.release(true);
      await Promise.all(held.map((h) => h.rest));
      // The held streams did not wait: their attempts say 0.
      expect(kept.filter((k) => k.attempts[0]!.queued_ms === 0)).to.have.length(2);
    });
  });
});
