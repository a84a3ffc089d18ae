// Non-streamed answers of every size up to `upstream.max_buffered_answer_bytes` reach the
// client whole, on every provider and on model discovery; a larger one is a 502 and its
// upstream connection is closed, so the pool serves the next call. (Before: an answer over
// 256 KiB paused the upstream socket and nothing resumed it; the call hung with no status.)
import { expect } from 'chai';
import { GEMINI_KEY, GeminiMock } from '../helpers/mock-gemini.js';
import { ANTHROPIC_KEY, AnthropicMock } from '../helpers/mock-anthropic.js';
import { openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { sendJson } from '../helpers/mock-provider.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { expectError } from '../helpers/errors.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

const MiB = 1024 * 1024;

/** A chat completion whose content is `size` characters. */
function completion(size: number): Record<string, unknown> {
  return {
    id: 'chatcmpl-big',
    object: 'chat.completion',
    created: 1769092764,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(size) }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
  };
}

/** `count` vectors of `dims` full-precision negative numbers (about 21 bytes each in JSON). */
function vectors(count: number, dims: number): number[][] {
  return Array.from({ length: count }, (_, v) => Array.from({ length: dims }, (_, i) => -0.01 - Math.abs(Math.sin(v * dims + i)) / 7));
}

const ask = (gw: TestGateway, model: string): Promise<Response> =>
  gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }) });

describe('answers of every size @integration', () => {
  let openai: MockProvider;
  let gemini: GeminiMock;
  let anthropic: AnthropicMock;
  let gw: TestGateway;
  /** What the next OpenAI call answers. */
  let next: { status: number; body: unknown; type?: string };
  const MODEL_COUNT = 7000;
  const models = Array.from({ length: MODEL_COUNT }, (_, i) => ({ id: `ft:gpt-4o-mini:acme:model-${String(i).padStart(5, '0')}`, object: 'model', created: 1700000000, owned_by: 'acme' }));

  before(async () => {
    openai = await startOpenAIMock();
    openai.on('POST', '/v1/chat/completions', (_req, res) => {
      if (next.type === undefined) return sendJson(res, next.status, next.body);
      res.writeHead(next.status, { 'content-type': next.type });
      res.end(next.body as string);
    });
    openai.on('POST', '/v1/embeddings', (_req, res) => sendJson(res, next.status, next.body));
    openai.on('GET', '/v1/models', (_req, res) => sendJson(res, 200, { object: 'list', data: models }));
    gemini = await GeminiMock.start();
    anthropic = await AnthropicMock.start();
    gw = await startTestGateway({
      env: { ...openAIEnv(openai), GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url, ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: anthropic.url },
      // One connection per provider: a call that held its connection would stall the next one.
      config: { upstream: { connections_per_origin: 1 } },
    });
  });
  after(async () => {
    await gw.close();
    await Promise.all([openai.close(), gemini.close(), anthropic.close()]);
  });

  for (const size of [1 * MiB, 20 * MiB]) {
    it(`openai chat: a ${size / MiB} MB JSON answer reaches the client whole`, async () => {
      next = { status: 200, body: completion(size) };
      const answer = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.choices[0]!.message.content).to.have.length(size);
      expect(answer.usage).to.deep.equal({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    });
  }

  it('openai embeddings: a 1.3 MB answer (40 inputs x 1,536 dimensions) arrives whole with its usage', async () => {
    const data = vectors(40, 1536).map((embedding, index) => ({ object: 'embedding', index, embedding }));
    next = { status: 200, body: { object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: 200, total_tokens: 200 } } };
    expect(JSON.stringify(next.body).length).to.be.above(1.25e6);
    const res = await gw.client().embeddings.create({ model: 'openai/text-embedding-3-small', input: Array.from({ length: 40 }, (_, i) => `text ${i}`), encoding_format: 'float' });
    expect(res.data.map((d) => d.embedding)).to.deep.equal(data.map((d) => d.embedding));
    expect(res.usage).to.deep.equal({ prompt_tokens: 200, total_tokens: 200 });
  });

  it('gemini embeddings: a 1.3 MB answer (40 inputs x 1,536 dimensions) arrives whole', async () => {
    const values = vectors(40, 1536);
    gemini.answerNext({ json: { embeddings: values.map((v) => ({ values: v })) } });
    expect(JSON.stringify(values).length).to.be.above(1.25e6);
    const res = await gw.client().embeddings.create({ model: 'gemini/gemini-embedding-001', input: Array.from({ length: 40 }, (_, i) => `text ${i}`), dimensions: 1536, encoding_format: 'float' });
    expect(res.data).to.have.length(40);
    expect(res.data.map((d) => d.embedding)).to.deep.equal(values);
  });

  it('anthropic chat: a 1 MB message reaches the client whole', async () => {
    anthropic.answerWith({
      kind: 'message',
      body: { id: 'msg_big', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'y'.repeat(MiB) }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 5 } },
    });
    const answer = await gw.client().chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.choices[0]!.message.content).to.equal('y'.repeat(MiB));
  });

  it("a provider's 300 KB HTML error page is a 502 provider_error", async () => {
    next = { status: 500, type: 'text/html', body: `<html><body>${'<p>Internal Server Error</p>'.repeat(11_000)}</body></html>` };
    expect((next.body as string).length).to.be.above(300_000);
    await expectError(await ask(gw, 'openai/gpt-4o-mini'), 502, { message: "provider 'openai' answered 500", type: 'provider_error', code: null, param: null, provider: 'openai' });
  });

  it('GET /v1/models lists every model of a 600 KB /models answer', async () => {
    expect(JSON.stringify({ object: 'list', data: models }).length).to.be.above(600_000);
    const listed = (await (await gw.fetch('/v1/models')).json()) as { data: Array<{ id: string }> };
    const discovered = listed.data.filter((m) => m.id.startsWith('openai/ft:'));
    expect(discovered).to.have.length(MODEL_COUNT);
    expect(discovered[MODEL_COUNT - 1]!.id).to.equal(`openai/ft:gpt-4o-mini:acme:model-0${MODEL_COUNT - 1}`);
  });
});

describe('answers over the maximum for a buffered answer @integration', () => {
  let openai: MockProvider;
  let gw: TestGateway;
  let size = 0;
  const MAX = 64 * 1024;

  before(async () => {
    openai = await startOpenAIMock();
    openai.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 200, completion(size)));
    gw = await startTestGateway({ env: openAIEnv(openai), config: { upstream: { connections_per_origin: 1, max_buffered_answer_bytes: MAX } } });
  });
  after(async () => {
    await gw.close();
    await openai.close();
  });

  it('an answer over upstream.max_buffered_answer_bytes is a 502 answer_too_large, and its connection is released', async () => {
    size = 4 * MiB;
    await expectError(await ask(gw, 'openai/gpt-4o-mini'), 502, {
      message: `provider 'openai' answered with more than ${MAX} bytes (upstream.max_buffered_answer_bytes)`,
      type: 'provider_error',
      code: 'answer_too_large',
      param: null,
      provider: 'openai',
    });
    // The pool's only connection was closed, not left holding the rest of the answer.
    size = 1000;
    const res = await ask(gw, 'openai/gpt-4o-mini');
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).to.have.length(1000);
  });
});
