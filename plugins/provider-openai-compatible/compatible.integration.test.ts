// The OpenAI-compatible family end to end: the official openai SDK → Sluice → local mocks that
// play groq, ollama, deepseek, openrouter, xai, mistral and two vllm servers, with payloads
// recorded from the real APIs where there are some (test/fixtures/recorded/{groq,xai}).
import { expect } from 'chai';
import type { ChatUsage } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import { fixtureJson, fixtureText } from '../../test/helpers/fixtures.js';
import { startOpenAIMock } from '../../test/helpers/mock-openai.js';
import { MockProvider, sendJson, sendSse, splitSse } from '../../test/helpers/mock-provider.js';
import type { RecordedRequest } from '../../test/helpers/mock-provider.js';
import { waitFor } from '../../test/helpers/net.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { USAGE_PROBE_ENTRY, observedCalls } from './usage-probe.test-plugin.js';

const KEYS = { groq: 'gsk-upstream-groq', deepseek: 'sk-upstream-deepseek', openrouter: 'sk-or-upstream', xai: 'xai-upstream', mistral: 'mistral-upstream', gpuVllm: 'sk-gpu-vllm' };

type Body = { stream?: boolean; stream_options?: { include_usage?: boolean }; tools?: unknown[] };

/** Hand-written DeepSeek answer with a context-cache hit (fields as in api-docs.deepseek.com). */
const DEEPSEEK_USAGE: ChatUsage = {
  prompt_tokens: 1200,
  completion_tokens: 50,
  total_tokens: 1250,
  prompt_tokens_details: { cached_tokens: 1024 },
  prompt_cache_hit_tokens: 1024,
  prompt_cache_miss_tokens: 176,
};

/** Hand-written OpenRouter usage (fields as in openrouter.ai/docs/use-cases/usage-accounting). */
const OPENROUTER_USAGE: ChatUsage = {
  prompt_tokens: 14,
  completion_tokens: 3,
  total_tokens: 17,
  prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
  cost: 0.0000221,
  is_byok: false,
  cost_details: { upstream_inference_cost: 0.0000221 },
};

/** Hand-written xAI stream usage chunk, counted the way the recorded grok-3-mini answers are. */
const XAI_STREAM_USAGE: ChatUsage = {
  prompt_tokens: 10,
  completion_tokens: 27,
  total_tokens: 405,
  prompt_tokens_details: { text_tokens: 10, audio_tokens: 0, image_tokens: 0, cached_tokens: 3 },
  completion_tokens_details: { reasoning_tokens: 368, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  num_sources_used: 0,
  cost_in_usd_ticks: 1998250,
};

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null = null, usage?: ChatUsage): string {
  const choices = [{ index: 0, delta, finish_reason: finish }];
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1769093000, model, choices, ...(usage ? { usage } : {}) })}\n\n`;
}

function usageChunk(id: string, model: string, usage: ChatUsage): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1769093000, model, choices: [], usage })}\n\n`;
}

function completion(id: string, model: string, content: string, usage: ChatUsage): Record<string, unknown> {
  return { id, object: 'chat.completion', created: 1769093000, model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage };
}

function modelList(...ids: string[]): Record<string, unknown> {
  return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'someone' })) };
}

async function startGroqMock(): Promise<MockProvider> {
  const mock = await MockProvider.start();
  mock.on('GET', '/openai/v1/models', (_req, res) => sendJson(res, 200, fixtureJson('recorded/groq/models.json')));
  mock.on('POST', '/openai/v1/chat/completions', async (req, res) => {
    const body = req.json as Body;
    if (body.tools) return sendJson(res, 200, fixtureJson('recorded/groq/chat_with_tools.json'));
    if (body.stream) return sendSse(res, splitSse(fixtureText('recorded/groq/chat_completion_stream.txt')));
    sendJson(res, 200, fixtureJson('recorded/groq/chat_completion.json'));
  });
  return mock;
}

async function startDeepseekMock(): Promise<MockProvider> {
  const mock = await MockProvider.start();
  mock.on('GET', '/models', (_req, res) => sendJson(res, 200, modelList('deepseek-chat', 'deepseek-reasoner')));
  mock.on('POST', '/chat/completions', async (req, res) => {
    const body = req.json as Body;
    if (!body.stream) return sendJson(res, 200, completion('ds-1', 'deepseek-chat', 'Hi there', DEEPSEEK_USAGE));
    const events = [chunk('ds-2', 'deepseek-chat', { role: 'assistant', content: 'Hi' }), chunk('ds-2', 'deepseek-chat', {}, 'stop')];
    if (body.stream_options?.include_usage) events.push(usageChunk('ds-2', 'deepseek-chat', DEEPSEEK_USAGE));
    await sendSse(res, [...events, 'data: [DONE]\n\n']);
  });
  return mock;
}

async function startOpenRouterMock(): Promise<MockProvider> {
  const mock = await MockProvider.start();
  mock.on('GET', '/api/v1/models', (_req, res) => sendJson(res, 200, modelList('anthropic/claude-sonnet-4', 'openai/gpt-4o-mini')));
  mock.on('POST', '/api/v1/chat/completions', (_req, res) => sendJson(res, 200, completion('gen-1', 'anthropic/claude-sonnet-4', 'Hello!', OPENROUTER_USAGE)));
  return mock;
}

async function startXaiMock(): Promise<MockProvider> {
  const mock = await MockProvider.start();
  const stream = splitSse(fixtureText('recorded/xai/chat_completion_stream.txt'));
  mock.on('GET', '/v1/models', (_req, res) => sendJson(res, 200, fixtureJson('recorded/xai/models.json')));
  mock.on('POST', '/v1/chat/completions', async (req, res) => {
    const body = req.json as Body;
    if (!body.stream) return sendJson(res, 200, fixtureJson('recorded/xai/chat_completion.json'));
    const events = stream.slice(0, -1);
    if (body.stream_options?.include_usage) events.push(usageChunk('adfb55b2-61c6-c2d6-e210-48cff30943e5', 'grok-3-mini', XAI_STREAM_USAGE));
    await sendSse(res, [...events, 'data: [DONE]\n\n']);
  });
  mock.on('POST', '/v1/responses', async (req, res) => {
    if (!(req.json as Body).stream) return sendJson(res, 200, fixtureJson('recorded/xai/responses.json'));
    await sendSse(res, splitSse(fixtureText('recorded/xai/responses_stream.txt')));
  });
  return mock;
}

/** Plays Mistral's strict validation: `stream_options` is a 422, stream usage comes on the last chunk unasked. */
async function startMistralMock(): Promise<MockProvider> {
  const mock = await MockProvider.start();
  mock.on('GET', '/v1/models', (_req, res) => sendJson(res, 200, modelList('mistral-small-latest')));
  mock.on('POST', '/v1/chat/completions', async (req, res) => {
    const body = req.json as Body;
    if (body.stream_options !== undefined) {
      const detail = [{ type: 'extra_forbidden', loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted', input: body.stream_options }];
      return sendJson(res, 422, { object: 'error', message: { detail }, type: 'invalid_request_error', param: null, code: null });
    }
    const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
    await sendSse(res, [chunk('ms-1', 'mistral-small-latest', { role: 'assistant', content: 'Bonjour' }), chunk('ms-1', 'mistral-small-latest', { content: '!' }, 'stop', usage), 'data: [DONE]\n\n']);
  });
  return mock;
}

async function neutralUsage(provider: string): Promise<Usage | null> {
  await waitFor(() => observedCalls.some((c) => c.provider === provider), 2000, `the usage of a ${provider} call`);
  return observedCalls.find((c) => c.provider === provider)!.usage;
}

describe('OpenAI-compatible providers through the openai SDK @integration', () => {
  let groq: MockProvider;
  let ollama: MockProvider;
  let deepseek: MockProvider;
  let openrouter: MockProvider;
  let xai: MockProvider;
  let mistral: MockProvider;
  let localVllm: MockProvider;
  let gpuVllm: MockProvider;
  let gw: TestGateway;

  before(async () => {
    [groq, ollama, deepseek, openrouter, xai, mistral, localVllm, gpuVllm] = await Promise.all([
      startGroqMock(),
      startOpenAIMock(),
      startDeepseekMock(),
      startOpenRouterMock(),
      startXaiMock(),
      startMistralMock(),
      startOpenAIMock(),
      startOpenAIMock(),
    ]);
    gw = await startTestGateway({
      env: {
        GROQ_API_KEY: KEYS.groq,
        GROQ_BASE_URL: `${groq.url}/openai/v1`,
        OLLAMA_BASE_URL: `${ollama.url}/v1`,
        DEEPSEEK_API_KEY: KEYS.deepseek,
        DEEPSEEK_BASE_URL: deepseek.url,
        OPENROUTER_API_KEY: KEYS.openrouter,
        OPENROUTER_BASE_URL: `${openrouter.url}/api/v1`,
        XAI_API_KEY: KEYS.xai,
        XAI_BASE_URL: `${xai.url}/v1`,
        MISTRAL_API_KEY: KEYS.mistral,
        MISTRAL_BASE_URL: `${mistral.url}/v1`,
      },
      config: {
        providers: {
          openrouter: { http_referer: 'https://sluice.example', app_title: 'Sluice tests' },
          'local-vllm': { type: 'vllm', base_url: `${localVllm.url}/v1` },
          'gpu-vllm': { type: 'vllm', base_url: `${gpuVllm.url}/v1`, api_key: KEYS.gpuVllm },
        },
        plugins: [...defaultPlugins(), USAGE_PROBE_ENTRY],
      },
    });
  });
  after(async () => {
    await gw?.close();
    await Promise.all([groq, ollama, deepseek, openrouter, xai, mistral, localVllm, gpuVllm].map((m) => m?.close()));
  });
  beforeEach(() => {
    observedCalls.length = 0;
    for (const m of [groq, ollama, deepseek, openrouter, xai, mistral, localVllm, gpuVllm]) m.reset();
  });

  describe('groq (recorded payloads)', () => {
    it('lists every recorded groq model as groq/<id>', async () => {
      const ids = (await gw.client().models.list()).data.map((m) => m.id).filter((id) => id.startsWith('groq/'));
      const recorded = fixtureJson<{ data: Array<{ id: string }> }>('recorded/groq/models.json').data.map((m) => `groq/${m.id}`);
      expect(ids.sort()).to.deep.equal(recorded.sort());
      expect(ids).to.include('groq/llama-3.3-70b-versatile');
    });

    it('answers a chat completion with the provider bytes and maps its usage', async () => {
      const res = await gw.client().chat.completions.create({ model: 'groq/llama-3.3-70b-versatile', messages: [{ role: 'user', content: 'Say Hello World' }] });
      expect(res.id).to.equal('chatcmpl-704f97d8-0ee9-4fa6-b74f-777917cc07d7');
      expect(res.choices[0]!.message.content).to.equal('Hello World!');
      expect(res.usage).to.deep.include({ prompt_tokens: 38, completion_tokens: 4, total_tokens: 42 });
      const sent = groq.last();
      expect(sent.path).to.equal('/openai/v1/chat/completions');
      expect((sent.json as { model: string }).model).to.equal('llama-3.3-70b-versatile');
      expect(sent.headers['authorization']).to.equal(`Bearer ${KEYS.groq}`);
      expect(await neutralUsage('groq')).to.include({ input_tokens: 38, output_tokens: 4, total_tokens: 42, cached_input_tokens: 0, reasoning_tokens: 0 });
    });

    it('streams, asking groq for usage, and records it', async () => {
      const stream = await gw.client().chat.completions.create({ model: 'groq/llama-3.3-70b-versatile', stream: true, messages: [{ role: 'user', content: 'Say Hello World' }] });
      let text = '';
      let finish: string | null = null;
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? '';
        finish = c.choices[0]?.finish_reason ?? finish;
      }
      expect(text).to.equal('Hello World!');
      expect(finish).to.equal('stop');
      expect((groq.last().json as Body).stream_options).to.deep.equal({ include_usage: true });
      expect(await neutralUsage('groq')).to.include({ input_tokens: 38, output_tokens: 4, total_tokens: 42 });
    });

    it('forwards tools and returns the tool call', async () => {
      const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } } }];
      const res = await gw.client().chat.completions.create({ model: 'groq/llama-3.3-70b-versatile', tools, messages: [{ role: 'user', content: 'Weather in London?' }] });
      const call = res.choices[0]!.message.tool_calls![0]!;
      expect(res.choices[0]!.finish_reason).to.equal('tool_calls');
      expect(call.id).to.equal('2zvvry1t5');
      expect(call.type === 'function' && call.function).to.deep.equal({ name: 'get_weather', arguments: '{"location":"London"}' });
      expect((groq.last().json as Body).tools).to.deep.equal(tools);
      expect(await neutralUsage('groq')).to.include({ input_tokens: 203, output_tokens: 14, total_tokens: 217 });
    });

    it('answers embeddings with 501, groq having none', async () => {
      const res = await gw.fetch('/v1/embeddings', { method: 'POST', body: JSON.stringify({ model: 'groq/llama-3.3-70b-versatile', input: 'x' }) });
      expect(res.status).to.equal(501);
      expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('unsupported_operation');
      expect(groq.requests).to.have.length(0);
    });
  });

  describe('ollama (base URL only, no key)', () => {
    it('sends no Authorization header at all', async () => {
      const res = await gw.client().chat.completions.create({ model: 'ollama/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.choices[0]!.message.content).to.equal('Hello, World!');
      const sent = ollama.last();
      expect(sent.path).to.equal('/v1/chat/completions');
      expect(sent.headers).to.not.have.property('authorization');
      expect((sent.json as { model: string }).model).to.equal('gpt-4o-mini');
    });

    it('lists its models and serves embeddings, still without a credential', async () => {
      const ids = (await gw.client().models.list()).data.map((m) => m.id);
      expect(ids).to.include('ollama/gpt-4o-mini');
      ollama.reset();
      const emb = await gw.client().embeddings.create({ model: 'ollama/nomic-embed-text', input: ['a', 'b'], encoding_format: 'float' });
      expect(emb.data).to.have.length(2);
      expect(ollama.last().path).to.equal('/v1/embeddings');
      expect(ollama.last().headers).to.not.have.property('authorization');
    });
  });

  describe('deepseek (context cache in fields of its own)', () => {
    it('passes its usage through to the client and maps the cache hits to cached input tokens', async () => {
      const res = await gw.client().chat.completions.create({ model: 'deepseek/deepseek-chat', messages: [{ role: 'user', content: 'hi' }] });
      expect(res.usage as unknown).to.deep.equal(DEEPSEEK_USAGE);
      expect(deepseek.last().path).to.equal('/chat/completions');
      expect(deepseek.last().headers['authorization']).to.equal(`Bearer ${KEYS.deepseek}`);
      expect(await neutralUsage('deepseek')).to.deep.equal({
        input_tokens: 1200,
        output_tokens: 50,
        total_tokens: 1250,
        cached_input_tokens: 1024,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        audio_input_tokens: 0,
        audio_output_tokens: 0,
        raw: DEEPSEEK_USAGE,
      });
    });

    it('maps the usage chunk of a stream the same way', async () => {
      const stream = await gw.client().chat.completions.create({ model: 'deepseek/deepseek-chat', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      let text = '';
      for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
      expect(text).to.equal('Hi');
      expect(await neutralUsage('deepseek')).to.include({ input_tokens: 1200, cached_input_tokens: 1024, output_tokens: 50 });
    });
  });

  describe('openrouter (cost in usage, attribution headers)', () => {
    it('records usage.cost as the provider cost and sends the attribution headers from the instance options', async () => {
      const res = await gw.client().chat.completions.create({ model: 'openrouter/anthropic/claude-sonnet-4', messages: [{ role: 'user', content: 'hi' }] });
      expect((res.usage as unknown as { cost: number }).cost).to.equal(0.0000221);
      const sent = openrouter.last();
      expect(sent.path).to.equal('/api/v1/chat/completions');
      expect((sent.json as { model: string }).model).to.equal('anthropic/claude-sonnet-4');
      expect(sent.headers['authorization']).to.equal(`Bearer ${KEYS.openrouter}`);
      expect(sent.headers['http-referer']).to.equal('https://sluice.example');
      expect(sent.headers['x-openrouter-title']).to.equal('Sluice tests');
      expect(sent.headers['x-title']).to.equal('Sluice tests');
      expect(await neutralUsage('openrouter')).to.include({ input_tokens: 14, output_tokens: 3, total_tokens: 17, provider_cost_usd: 0.0000221 });
    });

    it('lists models whose ids have slashes of their own', async () => {
      const ids = (await gw.client().models.list()).data.map((m) => m.id).filter((id) => id.startsWith('openrouter/'));
      expect(ids.sort()).to.deep.equal(['openrouter/anthropic/claude-sonnet-4', 'openrouter/openai/gpt-4o-mini']);
    });
  });

  describe('xai (recorded payloads)', () => {
    it('passes reasoning_content through and counts reasoning as output, with the billed cost', async () => {
      const res = await gw.client().chat.completions.create({ model: 'xai/grok-3-mini', messages: [{ role: 'user', content: 'Say Hello World' }] });
      expect(res.choices[0]!.message.content).to.match(/^Hello World! 😊/);
      expect((res.choices[0]!.message as unknown as { reasoning_content: string }).reasoning_content).to.match(/^First, the user said/);
      expect(xai.last().headers['authorization']).to.equal(`Bearer ${KEYS.xai}`);
      expect(await neutralUsage('xai')).to.include({ input_tokens: 10, cached_input_tokens: 3, output_tokens: 410, reasoning_tokens: 375, total_tokens: 420, provider_cost_usd: 0.000207325 });
    });

    it('streams the recorded reasoning stream and maps the usage chunk it asked for', async () => {
      const stream = await gw.client().chat.completions.create({ model: 'xai/grok-3-mini', stream: true, messages: [{ role: 'user', content: 'Say Hello World' }] });
      let usageChunks = 0;
      let text = '';
      for await (const c of stream) {
        if (c.usage) usageChunks++;
        text += c.choices[0]?.delta.content ?? '';
      }
      expect(text).to.match(/^Hello World!/);
      expect(usageChunks).to.equal(0);
      expect((xai.last().json as Body).stream_options).to.deep.equal({ include_usage: true });
      expect(await neutralUsage('xai')).to.include({ input_tokens: 10, output_tokens: 395, reasoning_tokens: 368, total_tokens: 405, provider_cost_usd: 0.000199825 });
    });

    it('serves its native Responses API with the billed cost in usage', async () => {
      const res = await gw.client().responses.create({ model: 'xai/grok-3-mini', input: "Say 'Hello, World!' and nothing else." });
      expect(res.output_text).to.equal('Hello, World!');
      expect(xai.last().path).to.equal('/v1/responses');
      expect(await neutralUsage('xai')).to.include({ input_tokens: 17, output_tokens: 276, reasoning_tokens: 272, cached_input_tokens: 3, provider_cost_usd: 0.000142425 });
    });

    it('streams its native Responses API and takes the billed cost from response.completed', async () => {
      const stream = await gw.client().responses.create({ model: 'xai/grok-3-mini', input: "Say 'Hello, World!' and nothing else.", stream: true });
      let completed = false;
      for await (const e of stream) if (e.type === 'response.completed') completed = true;
      expect(completed).to.equal(true);
      expect(await neutralUsage('xai')).to.include({ input_tokens: 17, output_tokens: 185, reasoning_tokens: 181, provider_cost_usd: 0.000096925 });
    });
  });

  describe('mistral (rejects stream_options)', () => {
    it('keeps even the client’s own stream_options from mistral and still records the usage it sends unasked', async () => {
      const stream = await gw.client().chat.completions.create({
        model: 'mistral/mistral-small-latest',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Salut' }],
      });
      let text = '';
      const usages: unknown[] = [];
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? '';
        if (c.usage) usages.push(c.usage);
      }
      expect(text).to.equal('Bonjour!');
      expect(usages).to.deep.equal([{ prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 }]);
      expect(mistral.last().json).to.not.have.property('stream_options');
      expect(mistral.last().headers['authorization']).to.equal(`Bearer ${KEYS.mistral}`);
      expect(await neutralUsage('mistral')).to.include({ input_tokens: 9, output_tokens: 3, total_tokens: 12 });
    });
  });

  describe('two vllm instances under their own prefixes', () => {
    it('routes each prefix to its own server with its own credential', async () => {
      const local = await gw.client().chat.completions.create({ model: 'local-vllm/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      expect(local.response.headers.get('x-gateway-provider')).to.equal('local-vllm');
      expect(local.data.choices[0]!.message.content).to.equal('Hello, World!');
      expect(localVllm.last().headers).to.not.have.property('authorization');
      expect(gpuVllm.requests).to.have.length(0);

      const gpu = await gw.client().chat.completions.create({ model: 'gpu-vllm/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      expect(gpu.response.headers.get('x-gateway-provider')).to.equal('gpu-vllm');
      expect(gpuVllm.last().headers['authorization']).to.equal(`Bearer ${KEYS.gpuVllm}`);
      expect((gpuVllm.last().json as { model: string }).model).to.equal('gpt-4o-mini');
      expect(localVllm.requests).to.have.length(1);
    });

    it('lists both instances, and no default vllm instance without VLLM_BASE_URL', async () => {
      const ids = (await gw.client().models.list()).data.map((m) => m.id);
      expect(ids).to.include('local-vllm/gpt-4o-mini');
      expect(ids).to.include('gpu-vllm/gpt-4o-mini');
      expect(ids.filter((id) => id.startsWith('vllm/'))).to.deep.equal([]);
      const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'vllm/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }) });
      expect(res.status).to.equal(404);
    });
  });

  it('never lets a client header reach any of them', async () => {
    const cases: Array<[string, MockProvider]> = [
      ['groq/llama-3.3-70b-versatile', groq],
      ['ollama/gpt-4o-mini', ollama],
      ['deepseek/deepseek-chat', deepseek],
      ['openrouter/anthropic/claude-sonnet-4', openrouter],
      ['xai/grok-3-mini', xai],
      ['local-vllm/gpt-4o-mini', localVllm],
      ['gpu-vllm/gpt-4o-mini', gpuVllm],
    ];
    for (const [model, mock] of cases) {
      await gw.client().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'X-Client-Secret': 'do-not-leak', 'X-OpenWebUI-User-Email': 'a@b.c' } });
      const sent: RecordedRequest = mock.last();
      expect(sent.headers, model).to.not.have.property('x-client-secret');
      expect(sent.headers, model).to.not.have.property('x-openwebui-user-email');
    }
    const stream = await gw.client().chat.completions.create(
      { model: 'mistral/mistral-small-latest', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      { headers: { 'X-Client-Secret': 'do-not-leak' } },
    );
    for await (const _ of stream) void _;
    expect(mistral.last().headers).to.not.have.property('x-client-secret');
  });
});

describe('OpenAI-compatible provider config @integration', () => {
  it('stops the boot on an instance option its type does not take', async () => {
    let failure: { code?: string; message?: string } | null = null;
    await startTestGateway({ config: { providers: { 'local-vllm': { type: 'vllm', base_url: 'http://127.0.0.1:9/v1', deployments: { a: 'b' } } } } }).then(
      (gw) => gw.close(),
      (err: unknown) => (failure = err as { code?: string; message?: string }),
    );
    expect(failure!.code).to.equal('SLUICE_ERR_CONFIG_INVALID');
    expect(failure!.message).to.match(/providers\.local-vllm\.deployments: unknown key for a provider of type 'vllm'$/);
  });
});
