// Azure OpenAI end to end: the official openai SDK → Sluice → a local mock that answers only at
// Azure's deployment paths, with the api-version query and the api-key header.
import { expect } from 'chai';
import { fixtureJson, fixtureText } from '../../test/helpers/fixtures.js';
import { floatVector } from '../../test/helpers/mock-openai.js';
import { MockProvider, sendJson, sendSse, splitSse } from '../../test/helpers/mock-provider.js';
import type { MockHandler } from '../../test/helpers/mock-provider.js';
import { waitFor } from '../../test/helpers/net.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { USAGE_PROBE_ENTRY, observedCalls } from '../provider-openai-compatible/usage-probe.test-plugin.js';

const KEY = 'azure-upstream-key-0123';
const EU_KEY = 'azure-eu-upstream-key';

const USAGE_CHUNK = {
  id: 'chatcmpl-azure-1',
  object: 'chat.completion.chunk',
  created: 1769092764,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [],
  usage: { prompt_tokens: 17, completion_tokens: 4, total_tokens: 21, prompt_tokens_details: { cached_tokens: 0 } },
};

const chat: MockHandler = async (req, res) => {
  const body = req.json as { stream?: boolean; stream_options?: { include_usage?: boolean } };
  if (!body.stream) return sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
  // Azure opens a stream with a chunk of prompt filter results and no choices.
  const events = [`data: ${JSON.stringify({ id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] })}\n\n`];
  events.push(...splitSse(fixtureText('recorded/openai/chat_completion_stream.txt')).slice(0, -1));
  if (body.stream_options?.include_usage) events.push(`data: ${JSON.stringify(USAGE_CHUNK)}\n\n`);
  await sendSse(res, [...events, 'data: [DONE]\n\n']);
};

const embeddings: MockHandler = (req, res) => {
  const input = (req.json as { input: string[] }).input;
  const data = input.map((_t, index) => ({ object: 'embedding', index, embedding: floatVector(index) }));
  sendJson(res, 200, { object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: 4, total_tokens: 4 } });
};

describe('Azure OpenAI through the openai SDK @integration', () => {
  let azure: MockProvider;
  let azureEu: MockProvider;
  let gw: TestGateway;
  /** What the mocks received while the gateway booted (model discovery included). */
  let bootRequests = -1;

  before(async () => {
    [azure, azureEu] = await Promise.all([MockProvider.start(), MockProvider.start()]);
    azure.on('POST', '/openai/deployments/my-gpt4o/chat/completions', chat);
    azure.on('POST', '/openai/deployments/prod-gpt4o/chat/completions', chat);
    azure.on('POST', '/openai/deployments/embed-small/embeddings', embeddings);
    azureEu.on('POST', '/openai/deployments/eu-gpt4o/chat/completions', chat);
    gw = await startTestGateway({
      env: { AZURE_OPENAI_API_KEY: KEY, AZURE_OPENAI_BASE_URL: azure.url },
      config: {
        providers: {
          azure: { deployments: { 'gpt-4o': 'prod-gpt4o', 'text-embedding-3-small': 'embed-small' } },
          'azure-eu': { type: 'azure', base_url: `${azureEu.url}/openai`, api_key: EU_KEY, api_version: '2025-04-01-preview' },
        },
        plugins: [...defaultPlugins(), USAGE_PROBE_ENTRY],
      },
    });
    bootRequests = azure.requests.length + azureEu.requests.length;
  });
  after(async () => {
    await gw?.close();
    await Promise.all([azure?.close(), azureEu?.close()]);
  });
  beforeEach(() => {
    observedCalls.length = 0;
    azure.reset();
    azureEu.reset();
  });

  it('calls the deployment path with the default GA api-version and the api-key header, never Authorization', async () => {
    const res = await gw.client().chat.completions.create({ model: 'azure/my-gpt4o', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(res.choices[0]!.message.content).to.equal('Hello, World!');
    const sent = azure.last();
    expect(sent.url).to.equal('/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21');
    expect(sent.headers['api-key']).to.equal(KEY);
    expect(sent.headers).to.not.have.property('authorization');
    expect((sent.json as { model: string }).model).to.equal('my-gpt4o');
  });

  it('maps a model name to its deployment through the deployments option', async () => {
    await gw.client().chat.completions.create({ model: 'azure/gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(azure.last().url).to.equal('/openai/deployments/prod-gpt4o/chat/completions?api-version=2024-10-21');
  });

  it('streams, asking for usage, and records it without showing the usage chunk unasked', async () => {
    const stream = await gw.client().chat.completions.create({ model: 'azure/my-gpt4o', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    let usageChunks = 0;
    for await (const c of stream) {
      text += c.choices[0]?.delta.content ?? '';
      if (c.usage) usageChunks++;
    }
    expect(text).to.equal('Hello, World!');
    expect(usageChunks).to.equal(0);
    expect((azure.last().json as { stream_options: unknown }).stream_options).to.deep.equal({ include_usage: true });
    await waitFor(() => observedCalls.length > 0, 2000, 'the usage of the azure stream');
    expect(observedCalls[0]).to.deep.include({ provider: 'azure' });
    expect(observedCalls[0]!.usage).to.include({ input_tokens: 17, output_tokens: 4, total_tokens: 21 });
  });

  it('serves embeddings from their deployment', async () => {
    const res = await gw.client().embeddings.create({ model: 'azure/text-embedding-3-small', input: ['a', 'b'], encoding_format: 'float' });
    expect(res.data.map((d) => d.index)).to.deep.equal([0, 1]);
    expect(res.data[0]!.embedding).to.deep.equal(floatVector(0));
    const sent = azure.last();
    expect(sent.url).to.equal('/openai/deployments/embed-small/embeddings?api-version=2024-10-21');
    expect(sent.headers['api-key']).to.equal(KEY);
    expect(sent.headers).to.not.have.property('authorization');
  });

  it('lists the deployments map as its models', async () => {
    const ids = (await gw.client().models.list()).data.map((m) => m.id).filter((id) => id.startsWith('azure'));
    expect(ids.sort()).to.deep.equal(['azure/gpt-4o', 'azure/text-embedding-3-small']);
    // Listed from the config alone: Azure was never asked, neither at boot nor now.
    expect(bootRequests).to.equal(0);
    expect(azure.requests).to.have.length(0);
  });

  it('serves a second instance with its own endpoint, key and api-version', async () => {
    await gw.client().chat.completions.create({ model: 'azure-eu/eu-gpt4o', messages: [{ role: 'user', content: 'hi' }] });
    const sent = azureEu.last();
    expect(sent.url).to.equal('/openai/deployments/eu-gpt4o/chat/completions?api-version=2025-04-01-preview');
    expect(sent.headers['api-key']).to.equal(EU_KEY);
    expect(azure.requests).to.have.length(0);
  });

  it('keeps its own 404 for an unknown deployment, with the provider named', async () => {
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'azure/missing', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).to.equal(404);
    expect(((await res.json()) as { error: { provider: string } }).error.provider).to.equal('azure');
    expect(azure.last().url).to.equal('/openai/deployments/missing/chat/completions?api-version=2024-10-21');
  });

  it('never lets a client header reach Azure', async () => {
    await gw.client().chat.completions.create({ model: 'azure/my-gpt4o', messages: [{ role: 'user', content: 'hi' }] }, { headers: { 'X-Client-Secret': 'do-not-leak', 'X-OpenWebUI-User-Email': 'a@b.c' } });
    const headers = azure.last().headers;
    expect(headers).to.not.have.property('x-client-secret');
    expect(headers).to.not.have.property('x-openwebui-user-email');
    expect(headers['api-key']).to.equal(KEY);
  });
});

describe('Azure OpenAI configuration @integration', () => {
  it('takes AZURE_OPENAI_API_VERSION for the default instance', async () => {
    const mock = await MockProvider.start();
    mock.on('POST', '/openai/deployments/d1/chat/completions', chat);
    const gw = await startTestGateway({ env: { AZURE_OPENAI_API_KEY: KEY, AZURE_OPENAI_BASE_URL: mock.url, AZURE_OPENAI_API_VERSION: '2025-01-01-preview' } });
    try {
      await gw.client().chat.completions.create({ model: 'azure/d1', messages: [{ role: 'user', content: 'hi' }] });
      expect(mock.last().url).to.equal('/openai/deployments/d1/chat/completions?api-version=2025-01-01-preview');
    } finally {
      await gw.close();
      await mock.close();
    }
  });
});
