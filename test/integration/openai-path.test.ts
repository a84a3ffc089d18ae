// The OpenAI path end to end: the official openai SDK → Sluice → a local mock of OpenAI's API
// serving recorded payloads.
import { expect } from 'chai';
import { OPENAI_KEY } from '../helpers/mock-openai.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';

describe('OpenAI path through the openai SDK @integration', () => {
  const openai = withOpenAIGateway();

  it('lists the provider models with their prefix, and demo is off', async () => {
    const models = await openai.gw.client().models.list();
    const ids = models.data.map((m) => m.id);
    expect(ids).to.include('openai/gpt-4o-mini');
    expect(ids).to.include('openai/gpt-4-0613');
    expect(ids.some((id) => id.startsWith('demo/'))).to.equal(false);
  });

  it('answers a chat completion with the provider bytes, the model rewritten upstream', async () => {
    const res = await openai.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(res.choices[0]!.message.content).to.equal('Hello, World!');
    expect(res.usage).to.deep.include({ prompt_tokens: 17, completion_tokens: 4, total_tokens: 21 });
    const sent = openai.mock.last();
    expect(sent.path).to.equal('/v1/chat/completions');
    expect((sent.json as { model: string }).model).to.equal('gpt-4o-mini');
    expect(sent.headers['authorization']).to.equal(`Bearer ${OPENAI_KEY}`);
  });

  it('never forwards client headers on translated routes', async () => {
    await openai.gw.client().chat.completions.create(
      { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
      { headers: { 'X-Client-Secret': 'do-not-leak', 'X-OpenWebUI-User-Email': 'a@b.c' } },
    );
    const headers = openai.mock.last().headers;
    expect(headers).to.not.have.property('x-client-secret');
    expect(headers).to.not.have.property('x-openwebui-user-email');
    expect(headers['authorization']).to.equal(`Bearer ${OPENAI_KEY}`);
  });

  it('streams chunk by chunk, asks the provider for usage, and hides it when the client did not ask', async () => {
    const stream = await openai.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    let usageChunks = 0;
    for await (const chunk of stream) {
      if (chunk.usage) usageChunks++;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).to.equal('Hello, World!');
    expect(usageChunks).to.equal(0);
    expect((openai.mock.last().json as { stream_options: unknown }).stream_options).to.deep.equal({ include_usage: true });
  });

  it('passes the usage chunk through when the client asks for it', async () => {
    const stream = await openai.gw.client().chat.completions.create({
      model: 'openai/gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
    const usages = [];
    for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage);
    expect(usages).to.have.length(1);
    expect(usages[0]).to.deep.include({ prompt_tokens: 17, completion_tokens: 4, total_tokens: 21 });
  });

  it('serves embeddings as floats and as base64', async () => {
    const floats = await openai.gw.client().embeddings.create({ model: 'openai/text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float' });
    expect(floats.data).to.have.length(2);
    expect(floats.data[1]!.embedding).to.deep.equal([0.841471, 0.909297, 0.14112, -0.756802, -0.958924, -0.279415, 0.656987, 0.989358]);
    expect(floats.usage).to.deep.equal({ prompt_tokens: 10, total_tokens: 10 });
    // The SDK asks for base64 by default and decodes it back into floats.
    const decoded = await openai.gw.client().embeddings.create({ model: 'openai/text-embedding-3-small', input: 'a' });
    expect((openai.mock.last().json as { encoding_format: string }).encoding_format).to.equal('base64');
    expect(decoded.data[0]!.embedding.map((x) => Math.round(x * 1e6) / 1e6)).to.deep.equal([0, 0.841471, 0.909297, 0.14112, -0.756802, -0.958924, -0.279415, 0.656987]);
  });

  it('serves the native Responses API, streaming and not', async () => {
    const res = await openai.gw.client().responses.create({ model: 'openai/gpt-4o-mini', input: 'Say hello' });
    expect(res.output_text).to.be.a('string').and.not.equal('');
    expect((openai.mock.last().json as { model: string }).model).to.equal('gpt-4o-mini');
    const stream = await openai.gw.client().responses.create({ model: 'openai/gpt-4o-mini', input: 'Say hello', stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).to.equal('response.created');
    expect(types[types.length - 1]).to.equal('response.completed');
    expect(types).to.include('response.output_text.delta');
  });

  it('compacts natively and strips the provider hint before it goes upstream', async () => {
    const res = await openai.gw.fetch('/v1/responses/compact', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', provider: 'openai', input: 'long history' }) });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { output: Array<{ type: string }> };
    expect(body.output[0]!.type).to.equal('compaction');
    const sent = openai.mock.last();
    expect(sent.path).to.equal('/v1/responses/compact');
    expect(sent.json).to.deep.equal({ model: 'gpt-4o-mini', input: 'long history' });
  });

  it('sets the request id and the answering provider and model on responses', async () => {
    const res = await openai.gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }) });
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-gateway-provider')).to.equal('openai');
    expect(res.headers.get('x-gateway-model')).to.equal('gpt-4o-mini');
  });

  it('moves a reasoning level the model lacks to the nearest one, and drops it for a model that cannot reason', async () => {
    const ask = (model: string, effort: string) =>
      openai.gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model, reasoning_effort: effort, messages: [{ role: 'user', content: 'x' }] }) });
    expect((await ask('openai/o3', 'max')).status).to.equal(200);
    expect((openai.mock.last().json as { reasoning_effort?: string }).reasoning_effort).to.equal('high');
    await ask('openai/o3', 'minimal');
    expect((openai.mock.last().json as { reasoning_effort?: string }).reasoning_effort).to.equal('low');
    await ask('openai/o3', 'medium');
    expect((openai.mock.last().json as { reasoning_effort?: string }).reasoning_effort).to.equal('medium');
    await ask('openai/gpt-4o-mini', 'high');
    expect(openai.mock.last().json).to.not.have.property('reasoning_effort');
    // Not in the catalog: OpenAI's general levels apply.
    await ask('openai/some-new-model', 'xhigh');
    expect((openai.mock.last().json as { reasoning_effort?: string }).reasoning_effort).to.equal('high');
    const res = await openai.gw.fetch('/v1/responses', { method: 'POST', body: JSON.stringify({ model: 'openai/o3', input: 'x', reasoning: { effort: 'xhigh', summary: 'auto' } }) });
    expect(res.status).to.equal(200);
    expect((openai.mock.last().json as { reasoning: unknown }).reasoning).to.deep.equal({ effort: 'high', summary: 'auto' });
  });
});
