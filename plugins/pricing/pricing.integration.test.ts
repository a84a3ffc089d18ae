// Prices through HTTP, issue 18: the official openai SDK -> Sluice -> local mocks of OpenAI,
// Anthropic, Gemini and DeepSeek answering with each provider's own usage block (the recorded
// payloads, with the counts of each case put in). Every expected cost is written out as the
// arithmetic of the catalog's rates (USD per million tokens) times the tokens, and compared to
// the price stage's figure (read by request id from a probe plugin) to 1e-9 USD.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { CostResult } from '../../core/context.js';
import { fixtureJson, fixtureText } from '../../test/helpers/fixtures.js';
import { AnthropicMock, answers } from '../../test/helpers/mock-anthropic.js';
import { GeminiMock } from '../../test/helpers/mock-gemini.js';
import { MockProvider, sendJson, sendSse, splitSse } from '../../test/helpers/mock-provider.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { COST_PROBE_ENTRY, observedCosts } from './cost-probe.test-plugin.js';

const MTOK = 1_000_000;

/** OpenAI's recorded completion with the usage and service tier of a case. */
function openAICompletion(usage: Record<string, unknown>, serviceTier: string): Record<string, unknown> {
  return { ...fixtureJson('recorded/openai/chat_completion.json'), usage, service_tier: serviceTier };
}

/** OpenAI's recorded stream, its usage-only chunk carrying the case's usage and service tier. */
function openAIStream(usage: Record<string, unknown>, serviceTier: string): string[] {
  const events = splitSse(fixtureText('recorded/openai/chat_completion_stream.txt')).slice(0, -1);
  const last = JSON.parse(events[events.length - 1]!.slice('data: '.length)) as Record<string, unknown>;
  events.push(`data: ${JSON.stringify({ ...last, service_tier: serviceTier, choices: [], usage, obfuscation: undefined })}\n\n`, 'data: [DONE]\n\n');
  return events;
}

const GPT5_USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 300,
  total_tokens: 1500,
  prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 100, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

function anthropicModels(ids: string[]): Record<string, unknown> {
  const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2026-10-07T00:00:00Z' }));
  return { data, has_more: false, first_id: ids[0], last_id: ids[ids.length - 1] };
}

function geminiAnswer(usageMetadata: Record<string, unknown>): Record<string, unknown> {
  return { ...(fixtureJson('gemini-native/generate-content-thinking.json') as Record<string, unknown>), usageMetadata };
}

const DEEPSEEK_USAGE = { prompt_tokens: 1200, completion_tokens: 50, total_tokens: 1250, prompt_tokens_details: { cached_tokens: 1024 }, prompt_cache_hit_tokens: 1024, prompt_cache_miss_tokens: 176 };

describe('pricing through HTTP: every billing shape, hand-computed (issue 18) @integration', () => {
  let openai: MockProvider;
  let anthropic: AnthropicMock;
  let gemini: GeminiMock;
  let deepseek: MockProvider;
  let gw: TestGateway;
  /** What the OpenAI mock's next answer reports as its service tier. */
  let servedTier = 'default';

  before(async () => {
    [openai, anthropic, gemini, deepseek] = await Promise.all([MockProvider.start(), AnthropicMock.start(), GeminiMock.start(), MockProvider.start()]);
    openai.on('GET', '/v1/models', (_req, res) => sendJson(res, 200, fixtureJson('recorded/openai/models.json')));
    openai.on('POST', '/v1/chat/completions', async (req, res) => {
      const body = req.json as { model: string; stream?: boolean };
      if (body.model === 'gpt-4o-mini') return sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
      if (body.stream) return sendSse(res, openAIStream(GPT5_USAGE, servedTier));
      sendJson(res, 200, openAICompletion(GPT5_USAGE, servedTier));
    });
    anthropic.provider.on('GET', '/v1/models', (_req, res) => sendJson(res, 200, anthropicModels(['claude-opus-4-5', 'claude-sonnet-4-6', 'claude-haiku-4-5'])));
    deepseek.on('GET', '/models', (_req, res) => sendJson(res, 200, { object: 'list', data: [{ id: 'deepseek-flash', object: 'model', owned_by: 'deepseek' }] }));
    deepseek.on('POST', '/chat/completions', (_req, res) =>
      sendJson(res, 200, { id: 'ds-1', object: 'chat.completion', created: 1769093000, model: 'deepseek-flash', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage: DEEPSEEK_USAGE }),
    );
    gw = await startTestGateway({
      env: {
        OPENAI_API_KEY: 'sk-upstream',
        OPENAI_BASE_URL: `${openai.url}/v1`,
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: anthropic.url,
        GEMINI_API_KEY: 'k',
        GEMINI_BASE_URL: gemini.url,
        DEEPSEEK_API_KEY: 'sk-upstream-deepseek',
        DEEPSEEK_BASE_URL: deepseek.url,
      },
      config: { plugins: [...defaultPlugins(), COST_PROBE_ENTRY] },
    });
  });
  after(async () => {
    await gw.close();
    await Promise.all([openai.close(), anthropic.close(), gemini.close(), deepseek.close()]);
  });

  /** The cost of the chat call, made through the SDK; its request id finds the probe's record. */
  async function costOf(model: string, extra: Record<string, unknown> = {}): Promise<CostResult> {
    const call = gw
      .client()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 100, ...extra } as never)
      .withResponse();
    const { data, response } = await call;
    // A stream is read to its end: the price is known once its usage has arrived.
    if (typeof (data as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function') {
      for await (const _chunk of data as unknown as AsyncIterable<unknown>) void _chunk;
    }
    const id = response.headers.get('x-request-id')!;
    for (let i = 0; i < 100 && !observedCosts.has(id); i++) await new Promise((r) => setTimeout(r, 10));
    const cost = observedCosts.get(id);
    if (cost == null) throw new Error(`no cost recorded for ${id}`);
    return cost;
  }

  function expectUsd(cost: CostResult, expected: number): void {
    expect(cost.source, JSON.stringify(cost)).to.equal('computed');
    expect(Number(cost.total_usd)).to.be.closeTo(expected, 1e-9);
  }

  const items = (cost: CostResult): Array<[string, number, string]> => (cost['lines'] as Array<{ item: string; quantity: number; rate_usd: string }>).map((l) => [l.item, l.quantity, l.rate_usd]);

  describe('Anthropic', () => {
    it('prices 1-hour cache writes at 2x input, 5-minute ones at 1.25x, reads at 0.1x (claude-opus-4-5)', async () => {
      const usage = {
        input_tokens: 14,
        cache_creation_input_tokens: 3000,
        cache_read_input_tokens: 2000,
        cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
        output_tokens: 5,
        service_tier: 'standard',
      };
      anthropic.answerWith({ kind: 'message', body: { ...fixtureJson<Record<string, unknown>>('recorded/anthropic/messages.json'), usage } });
      const cost = await costOf('anthropic/claude-opus-4-5');
      // $5 input, $0.50 read, $6.25 5-minute write, $10 1-hour write, $25 output per MTok.
      expectUsd(cost, (14 * 5 + 2000 * 0.5 + 1000 * 6.25 + 2000 * 10 + 5 * 25) / MTOK);
      expect(items(cost)).to.deep.equal([
        ['input', 14, '5'],
        ['cached_input', 2000, '0.5'],
        ['cache_write', 1000, '6.25'],
        ['cache_write_1h', 2000, '10'],
        ['output', 5, '25'],
      ]);
    });

    it('adds up a stream whose usage is split between message_start and message_delta, web searches included (claude-sonnet-4-6)', async () => {
      const recorded = fixtureText('recorded/anthropic/messages_stream.txt')
        .replace(
          '"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":3,"service_tier":"standard"}',
          '"usage":{"input_tokens":20,"cache_creation_input_tokens":4000,"cache_read_input_tokens":10000,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":4000},"output_tokens":1,"service_tier":"standard"}',
        )
        .replace(
          '"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":5}',
          '"usage":{"input_tokens":20,"cache_creation_input_tokens":4000,"cache_read_input_tokens":10000,"output_tokens":300,"server_tool_use":{"web_search_requests":2}}',
        );
      expect(recorded).to.include('"web_search_requests":2').and.include('"ephemeral_1h_input_tokens":4000');
      anthropic.answerWith({ kind: 'stream', events: splitSse(recorded), delayMs: 5 });
      const cost = await costOf('anthropic/claude-sonnet-4-6', { stream: true });
      // $3 input, $0.30 read, $6 1-hour write, $15 output per MTok; $10 per 1,000 searches.
      expectUsd(cost, (20 * 3 + 10000 * 0.3 + 4000 * 6 + 300 * 15) / MTOK + 2 * 0.01);
    });

    it("prices a call the answer reports as served by the batch tier at the batch rates (claude-haiku-4-5)", async () => {
      anthropic.answerWith({ kind: 'message', body: { ...fixtureJson<Record<string, unknown>>('recorded/anthropic/messages.json'), usage: { input_tokens: 1000, output_tokens: 200, service_tier: 'batch' } } });
      const cost = await costOf('anthropic/claude-haiku-4-5');
      // Batch: $0.50 input, $2.50 output per MTok (half of $1 / $5).
      expectUsd(cost, (1000 * 0.5 + 200 * 2.5) / MTOK);
      expect(cost['service_tier']).to.equal('batch');
    });
  });

  describe('OpenAI service tiers: the tier the answer reports wins over the one requested', () => {
    it('flex, as requested and reported (gpt-5, JSON answer)', async () => {
      servedTier = 'flex';
      const cost = await costOf('openai/gpt-5', { service_tier: 'flex' });
      // Flex: $0.625 input, $0.0625 cached, $5 output per MTok; reasoning is output.
      expectUsd(cost, ((1200 - 1024) * 0.625 + 1024 * 0.0625 + 300 * 5) / MTOK);
      expect(cost['service_tier']).to.equal('flex');
    });

    it('priority requested but served as default: standard rates (gpt-5, stream)', async () => {
      servedTier = 'default';
      const cost = await costOf('openai/gpt-5', { service_tier: 'priority', stream: true });
      expectUsd(cost, ((1200 - 1024) * 1.25 + 1024 * 0.125 + 300 * 10) / MTOK);
      expect(cost['service_tier']).to.equal('default');
    });

    it('priority served: priority rates (gpt-5, stream)', async () => {
      servedTier = 'priority';
      const cost = await costOf('openai/gpt-5', { service_tier: 'priority', stream: true });
      expectUsd(cost, ((1200 - 1024) * 2.5 + 1024 * 0.25 + 300 * 20) / MTOK);
    });
  });

  describe('Gemini', () => {
    it('prices a prompt above 200K tokens at the long-context tier (gemini-2.5-pro)', async () => {
      gemini.answerNext({ json: geminiAnswer({ promptTokenCount: 250000, candidatesTokenCount: 1000, thoughtsTokenCount: 500, totalTokenCount: 251500 }) });
      const cost = await costOf('gemini/gemini-2.5-pro');
      // Above 200K: $2.50 input, $15 output (thoughts included) per MTok.
      expectUsd(cost, (250000 * 2.5 + (1000 + 500) * 15) / MTOK);
      expect(cost['tier']).to.equal(1);
    });

    it('prices audio input tokens at the audio rate (gemini-2.5-flash)', async () => {
      const promptTokensDetails = [
        { modality: 'TEXT', tokenCount: 400 },
        { modality: 'AUDIO', tokenCount: 600 },
      ];
      gemini.answerNext({ json: geminiAnswer({ promptTokenCount: 1000, candidatesTokenCount: 100, totalTokenCount: 1100, promptTokensDetails }) });
      const cost = await costOf('gemini/gemini-2.5-flash');
      // $0.30 text input, $1 audio input, $2.50 output per MTok.
      expectUsd(cost, (400 * 0.3 + 600 * 1 + 100 * 2.5) / MTOK);
    });
  });

  describe('DeepSeek peak hours, with a fixed clock', () => {
    const realNow = Date.now;
    afterEach(() => {
      Date.now = realNow;
    });

    async function costAt(iso: string): Promise<CostResult> {
      const at = Date.parse(iso);
      Date.now = () => at;
      try {
        return await costOf('deepseek/deepseek-flash');
      } finally {
        Date.now = realNow;
      }
    }

    it('the same call costs twice as much on a Tuesday at 02:30 UTC as at 05:00 or on a Saturday at 02:30', async () => {
      const peak = await costAt('2026-11-24T02:30:00Z');
      const between = await costAt('2026-11-24T05:00:00Z');
      const saturday = await costAt('2026-11-28T02:30:00Z');
      // Off-peak: $0.14 cache miss, $0.0028 cache hit, $0.28 output per MTok; peak: twice each.
      expectUsd(between, (176 * 0.14 + 1024 * 0.0028 + 50 * 0.28) / MTOK);
      expectUsd(saturday, (176 * 0.14 + 1024 * 0.0028 + 50 * 0.28) / MTOK);
      expectUsd(peak, (176 * 0.28 + 1024 * 0.0056 + 50 * 0.56) / MTOK);
      expect([peak['window'], between['window'], saturday['window']]).to.deep.equal(['peak', undefined, undefined]);
    });
  });

  describe('the operator overrides a price through the admin API', () => {
    const path = '/admin/prices/openai%2Fgpt-4o-mini';

    it('applies a PUT to the next call (a per-request fee included), records who and when, and DELETE restores the catalog', async () => {
      const before = await costOf('openai/gpt-4o-mini');
      // The recorded completion: 17 prompt and 4 completion tokens, at $0.15 / $0.60.
      expectUsd(before, (17 * 0.15 + 4 * 0.6) / MTOK);

      const put = await gw.fetch(path, { method: 'PUT', body: JSON.stringify({ currency: 'USD', input_per_mtok: 1, output_per_mtok: 2, per_request: 0.01 }) });
      expect(put.status).to.equal(200);
      const view = (await put.json()) as { model: string; pricing: unknown; override: { updated_by: string; updated_at: string } };
      expect(view.model).to.equal('openai/gpt-4o-mini');
      expect(view.pricing).to.deep.equal({ currency: 'USD', input_per_mtok: 1, output_per_mtok: 2, per_request: 0.01 });
      expect(view.override.updated_by).to.equal('master');
      expect(Date.now() - Date.parse(view.override.updated_at)).to.be.within(0, 10_000);

      const after = await costOf('openai/gpt-4o-mini');
      expectUsd(after, (17 * 1 + 4 * 2) / MTOK + 0.01);

      const listed = (await (await gw.fetch('/v1/models/openai/gpt-4o-mini')).json()) as { metadata: { pricing: unknown; pricing_sources: Record<string, unknown> } };
      expect(listed.metadata.pricing).to.deep.equal(view.pricing);
      expect(listed.metadata.pricing_sources).to.include({ override: true, updated_by: 'master', updated_at: view.override.updated_at });

      const removed = await gw.fetch(path, { method: 'DELETE' });
      expect(removed.status).to.equal(200);
      expectUsd(await costOf('openai/gpt-4o-mini'), (17 * 0.15 + 4 * 0.6) / MTOK);
      expect((await gw.fetch(path, { method: 'DELETE' })).status).to.equal(404);
    });

    it("prices a Gemini call at the tier its x-gemini-service-tier header names, once an override gives that tier's rates", async () => {
      const usage = fixtureJson<{ usageMetadata: Record<string, unknown> }>('gemini-native/generate-content-thinking.json').usageMetadata;
      // The recorded answer: 1289 prompt tokens (1024 cached), 41 answer and 211 thought tokens.
      gemini.answerNext({ json: geminiAnswer(usage), headers: { 'x-gemini-service-tier': 'priority' } });
      const standard = await costOf('gemini/gemini-2.5-flash');
      expectUsd(standard, (265 * 0.3 + 1024 * 0.03 + 252 * 2.5) / MTOK);
      expect(standard['notes']).to.deep.equal(["service tier 'priority' has no rates in the pricing; standard rates used"]);

      const pricing = { currency: 'USD', input_per_mtok: 0.3, cached_input_per_mtok: 0.03, output_per_mtok: 2.5, service_tiers: { priority: { input_per_mtok: 0.54, cached_input_per_mtok: 0.054, output_per_mtok: 4.5 } } };
      expect((await gw.fetch('/admin/prices/gemini/gemini-2.5-flash', { method: 'PUT', body: JSON.stringify(pricing) })).status).to.equal(200);
      gemini.answerNext({ json: geminiAnswer(usage), headers: { 'x-gemini-service-tier': 'priority' } });
      expectUsd(await costOf('gemini/gemini-2.5-flash'), (265 * 0.54 + 1024 * 0.054 + 252 * 4.5) / MTOK);
      expect((await gw.fetch('/admin/prices/gemini/gemini-2.5-flash', { method: 'DELETE' })).status).to.equal(200);
    });

    it('refuses a price the catalog could not hold, naming the field, and a model no provider lists', async () => {
      const typo = await gw.fetch(path, { method: 'PUT', body: JSON.stringify({ input_per_mtok: 1, output_per_mtk: 2 }) });
      expect(typo.status).to.equal(400);
      expect(((await typo.json()) as { error: unknown }).error).to.deep.include({ type: 'invalid_request_error', code: 'invalid_pricing', param: 'output_per_mtk' });
      const alone = await gw.fetch(path, { method: 'PUT', body: JSON.stringify({ input_per_mtk: 1 }) });
      expect(((await alone.json()) as { error: { param: string } }).error.param).to.equal('input_per_mtk');
      const none = await gw.fetch(path, { method: 'PUT', body: JSON.stringify({ currency: 'USD' }) });
      expect(((await none.json()) as { error: { param: string; message: string } }).error).to.deep.include({
        param: 'input_per_mtok',
        message: 'invalid pricing: input_per_mtok is missing: a price needs input_per_mtok or a per-unit rate',
      });
      const tier = await gw.fetch(path, { method: 'PUT', body: JSON.stringify({ input_per_mtok: 1, tiers: [{ up_to_tokens: 10, input_per_mtok: -1 }, { input_per_mtok: 2 }] }) });
      expect(((await tier.json()) as { error: { param: string } }).error.param).to.equal('tiers[0].input_per_mtok');
      const unknown = await gw.fetch('/admin/prices/openai%2Fno-such-model', { method: 'PUT', body: JSON.stringify({ input_per_mtok: 1 }) });
      expect(unknown.status).to.equal(404);
      expect((await gw.fetch(path)).status).to.equal(200);
      expect((await gw.fetch(path, { headers: { authorization: 'Bearer sk-not-a-key' } })).status).to.equal(401);
    });
  });

  it('shows each catalog price with its source page and the date it was checked in /v1/models', async () => {
    const model = (await (await gw.fetch('/v1/models/deepseek%2Fdeepseek-flash')).json()) as { metadata: { pricing_sources: Record<string, unknown> } };
    expect(model.metadata.pricing_sources).to.include({ url: 'https://api-docs.deepseek.com/quick_start/pricing', checked: '2026-11' });
  });
});

describe('price overrides survive a restart @integration', () => {
  it('keeps a PUT in the data directory and applies it at the next start', async () => {
    const openai = await MockProvider.start();
    openai.on('GET', '/v1/models', (_req, res) => sendJson(res, 200, fixtureJson('recorded/openai/models.json')));
    const env = { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${openai.url}/v1` };
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-prices-'));
    const first = await startTestGateway({ env, dataDir });
    const pricing = { currency: 'USD', input_per_mtok: 0.2, output_per_mtok: 0.8 };
    try {
      expect((await first.fetch('/admin/prices/openai/gpt-4o-mini', { method: 'PUT', body: JSON.stringify(pricing) })).status).to.equal(200);
    } finally {
      await first.close();
    }
    const second = await startTestGateway({ env, dataDir });
    try {
      const view = (await (await second.fetch('/admin/prices/openai/gpt-4o-mini')).json()) as { pricing: unknown; override: { updated_by: string } | null };
      expect(view.pricing).to.deep.equal(pricing);
      expect(view.override?.updated_by).to.equal('master');
      const list = (await (await second.fetch('/admin/prices')).json()) as { data: Array<{ model: string }> };
      expect(list.data.map((c) => c.model)).to.deep.equal(['openai/gpt-4o-mini']);
    } finally {
      await second.close();
      await openai.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
