// The offline demo provider through the official openai SDK, with no provider environment at
// all: what a newcomer sees on a fresh machine. Usage follows plugins/provider-demo/tokens.ts
// (about four characters a token, four tokens of framing per message, three per prompt).
import { expect } from 'chai';
import type { MockProvider } from '../helpers/mock-provider.js';
import { expectError } from '../helpers/errors.js';
import { openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

// 'You are terse.' is 14 characters (4 tokens), 'Hello there, gateway!' 21 (5 tokens):
// prompt 3 + (4 + 4) + (4 + 5) = 20, completion 5.
const MESSAGES = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'user' as const, content: 'Hello there, gateway!' },
];
const USAGE = { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 };

interface ModelWithMetadata {
  id: string;
  metadata?: { pricing?: { currency: string; input_per_mtok: number; output_per_mtok: number } };
}

function norm(v: number[]): number {
  return Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
}

describe('demo provider without any provider environment @integration', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  it('lists exactly demo/echo and demo/lorem, with pricing metadata', async () => {
    const page = await gw.client().models.list();
    const models = page.data as unknown as ModelWithMetadata[];
    expect(models.map((m) => m.id)).to.deep.equal(['demo/echo', 'demo/lorem']);
    expect(models[0]!.metadata!.pricing).to.deep.equal({ currency: 'USD', input_per_mtok: 0.15, output_per_mtok: 0.6, cached_input_per_mtok: 0.075 });
    expect(models[1]!.metadata!.pricing).to.deep.equal({ currency: 'USD', input_per_mtok: 2.5, output_per_mtok: 10, cached_input_per_mtok: 1.25 });
    const one = (await gw.client().models.retrieve('demo/echo')) as unknown as ModelWithMetadata;
    expect(one.id).to.equal('demo/echo');
  });

  it('echo answers with the last user message, with exact usage', async () => {
    const { data: res, response } = await gw.client().chat.completions.create({ model: 'demo/echo', messages: MESSAGES }).withResponse();
    expect(res.object).to.equal('chat.completion');
    expect(res.model).to.equal('echo');
    expect(res.choices).to.have.length(1);
    expect(res.choices[0]!.message).to.deep.equal({ role: 'assistant', content: 'Hello there, gateway!', refusal: null });
    expect(res.choices[0]!.finish_reason).to.equal('stop');
    expect(res.usage).to.deep.include(USAGE);
    expect(response.headers.get('x-gateway-provider')).to.equal('demo');
    expect(response.headers.get('x-gateway-model')).to.equal('echo');
  });

  it('streams the echo word by word, without a usage chunk unless asked', async () => {
    const stream = await gw.client().chat.completions.create({ model: 'demo/echo', messages: MESSAGES, stream: true });
    const deltas: string[] = [];
    const finish: Array<string | null> = [];
    let usageChunks = 0;
    for await (const chunk of stream) {
      if (chunk.usage) usageChunks++;
      for (const choice of chunk.choices) {
        deltas.push(choice.delta.content ?? '');
        finish.push(choice.finish_reason);
      }
    }
    expect(deltas).to.deep.equal(['', 'Hello', ' there,', ' gateway!', '']);
    expect(finish).to.deep.equal([null, null, null, null, 'stop']);
    expect(usageChunks).to.equal(0);
  });

  it('adds the usage chunk, last, when the client asks with include_usage', async () => {
    const stream = await gw.client().chat.completions.create({ model: 'demo/echo', messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).to.deep.equal([]);
    expect(last.usage).to.deep.include(USAGE);
    expect(chunks.filter((c) => c.usage)).to.have.length(1);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).to.equal('Hello there, gateway!');
  });

  it('lorem honours max_tokens and says the answer was cut', async () => {
    const res = await gw.client().chat.completions.create({ model: 'demo/lorem', messages: [{ role: 'user', content: 'write' }], max_tokens: 10 });
    // 39 characters: 10 tokens.
    expect(res.choices[0]!.message.content).to.equal('Lorem ipsum dolor sit amet consectetur.');
    expect(res.choices[0]!.finish_reason).to.equal('length');
    expect(res.usage).to.deep.include({ prompt_tokens: 8, completion_tokens: 10, total_tokens: 18 });
  });

  it('lorem never writes more than max_tokens, also streamed', async () => {
    for (const max of [1, 4, 5, 12, 17, 33]) {
      const res = await gw.client().chat.completions.create({ model: 'demo/lorem', messages: [{ role: 'user', content: 'write' }], max_completion_tokens: max });
      expect(res.usage!.completion_tokens, `max ${max}`).to.be.at.most(max);
    }
    const stream = await gw.client().chat.completions.create({ model: 'demo/lorem', messages: [{ role: 'user', content: 'write' }], max_tokens: 5, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let completionTokens = -1;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) completionTokens = chunk.usage.completion_tokens;
    }
    expect(text).to.equal('Lorem ipsum dolor.');
    expect(completionTokens).to.equal(5);
  });

  it('lorem without a limit writes its default length and stops normally', async () => {
    const res = await gw.client().chat.completions.create({ model: 'demo/lorem', messages: [{ role: 'user', content: 'write' }] });
    expect(res.choices[0]!.finish_reason).to.equal('stop');
    // The default is 60 tokens at most; the last whole word and its period fit in 59.
    expect(res.usage!.completion_tokens).to.equal(59);
  });

  it('embeds as floats: deterministic unit vectors, one per input, with exact usage', async () => {
    const first = await gw.client().embeddings.create({ model: 'demo/echo', input: ['the same text', 'another text'], encoding_format: 'float' });
    const again = await gw.client().embeddings.create({ model: 'demo/echo', input: 'the same text', encoding_format: 'float' });
    expect(first.data.map((d) => d.index)).to.deep.equal([0, 1]);
    const [a, b] = [first.data[0]!.embedding, first.data[1]!.embedding];
    expect(a).to.have.length(256);
    expect(again.data[0]!.embedding).to.deep.equal(a);
    expect(b).to.not.deep.equal(a);
    expect(norm(a)).to.be.closeTo(1, 1e-6);
    expect(norm(b)).to.be.closeTo(1, 1e-6);
    // 'the same text' is 13 characters (3 tokens), 'another text' 12 (3 tokens).
    expect(first.usage).to.deep.equal({ prompt_tokens: 6, total_tokens: 6 });
    expect(first.model).to.equal('echo');
  });

  it('embeds as base64 (the SDK default), decoding to the very same floats', async () => {
    const floats = await gw.client().embeddings.create({ model: 'demo/echo', input: 'the same text', encoding_format: 'float' });
    const res = await gw.fetch('/v1/embeddings', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', input: 'the same text', encoding_format: 'base64' }) });
    const raw = (await res.json()) as { data: Array<{ embedding: unknown }> };
    expect(raw.data[0]!.embedding).to.be.a('string');
    const decoded = await gw.client().embeddings.create({ model: 'demo/lorem', input: 'the same text' });
    expect(decoded.data[0]!.embedding).to.deep.equal(floats.data[0]!.embedding);
  });

  it('honours dimensions', async () => {
    const res = await gw.client().embeddings.create({ model: 'demo/echo', input: 'short', dimensions: 8, encoding_format: 'float' });
    expect(res.data[0]!.embedding).to.have.length(8);
    expect(norm(res.data[0]!.embedding)).to.be.closeTo(1, 1e-6);
  });
});

describe('demo provider next to a real one @integration', () => {
  let mock: MockProvider;

  before(async () => {
    mock = await startOpenAIMock();
  });
  after(() => mock.close());

  it('is off as soon as OPENAI_API_KEY is set', async () => {
    const gw = await startTestGateway({ env: openAIEnv(mock) });
    try {
      const ids = (await gw.client().models.list()).data.map((m) => m.id);
      expect(ids).to.include('openai/gpt-4o-mini');
      expect(ids.filter((id) => id.startsWith('demo/'))).to.deep.equal([]);
      await expectError(await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', messages: MESSAGES }) }), 404, {
        message: "model 'demo/echo' does not exist or is not served by this gateway",
        type: 'not_found_error',
        code: 'model_not_found',
        param: 'model',
      });
    } finally {
      await gw.close();
    }
  });

  it('is on again when the config says providers.demo.enabled: true', async () => {
    const gw = await startTestGateway({ env: openAIEnv(mock), config: { providers: { demo: { enabled: true } } } });
    try {
      const ids = (await gw.client().models.list()).data.map((m) => m.id);
      expect(ids).to.include('openai/gpt-4o-mini');
      expect(ids.filter((id) => id.startsWith('demo/'))).to.deep.equal(['demo/echo', 'demo/lorem']);
      const res = await gw.client().chat.completions.create({ model: 'demo/echo', messages: MESSAGES });
      expect(res.choices[0]!.message.content).to.equal('Hello there, gateway!');
    } finally {
      await gw.close();
    }
  });

  it('stays off with providers.demo.enabled: false, even with no other provider', async () => {
    const gw = await startTestGateway({ config: { providers: { demo: { enabled: false } } } });
    try {
      expect((await gw.client().models.list()).data).to.deep.equal([]);
    } finally {
      await gw.close();
    }
  });
});
