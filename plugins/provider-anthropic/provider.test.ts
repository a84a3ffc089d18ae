import { expect } from 'chai';
import { UpstreamClient } from '../../core/http-client.js';
import { createLogger } from '../../core/logger.js';
import { anthropicEndpoint } from './endpoint.js';
import { fromAnthropicModels } from './models.js';
import { createAnthropicProvider } from './provider.js';

const OPTIONS = { default_max_tokens: 4096, anthropic_version: '2023-06-01' };

function instance(apiKey: string | null) {
  return { name: 'claude', type: 'anthropic', apiKey, baseUrl: 'https://proxy.example/anthropic/', options: {} };
}

describe('provider-anthropic provider', () => {
  const upstream = new UpstreamClient({ connect_timeout_ms: 1000, first_byte_timeout_ms: 1000, idle_timeout_ms: 1000, connections_per_origin: null, queue_timeout_ms: 1000, max_buffered_answer_bytes: 1024 * 1024 }, createLogger('error'));
  after(() => upstream.close());

  it('serves chat only: embeddings and compact answer 501, responses is derived by the registry', () => {
    const provider = createAnthropicProvider(upstream, anthropicEndpoint(instance('sk-ant'), OPTIONS));
    expect([provider.name, provider.type, Object.keys(provider.operations), Object.isFrozen(provider.operations)]).to.deep.equal(['claude', 'anthropic', ['chat'], true]);
    expect(provider.listModels).to.be.a('function');
  });

  it('replaces a passthrough credential with its key and version, at the base URL without /v1', () => {
    const provider = createAnthropicProvider(upstream, anthropicEndpoint(instance('sk-ant'), { ...OPTIONS, anthropic_version: '2023-01-01' }));
    expect(provider.passthrough).to.deep.equal({ baseUrl: 'https://proxy.example/anthropic', authHeaders: { 'anthropic-version': '2023-01-01', 'x-api-key': 'sk-ant' } });
  });

  it('builds the upstream URLs and headers once, without a key when none is configured', () => {
    const ep = anthropicEndpoint(instance(null), OPTIONS);
    expect([ep.messagesUrl, ep.modelsUrl, ep.headers, Object.isFrozen(ep.headers)]).to.deep.equal([
      'https://proxy.example/anthropic/v1/messages',
      'https://proxy.example/anthropic/v1/models',
      { 'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'user-agent': 'sluice' },
      true,
    ]);
  });

  it('turns Anthropic model entries into prefixed models, skipping entries without an id', () => {
    expect(
      fromAnthropicModels('claude', [
        { type: 'model', id: 'claude-sonnet-4-20250514', display_name: 'Claude Sonnet 4', created_at: '2025-05-22T00:00:00Z' },
        { type: 'model', id: 'claude-next', created_at: 'not a date' },
        { type: 'model', display_name: 'nameless' },
      ]),
    ).to.deep.equal([
      { id: 'claude/claude-sonnet-4-20250514', object: 'model', created: 1747872000, owned_by: 'anthropic', metadata: { display_name: 'Claude Sonnet 4' } },
      { id: 'claude/claude-next', object: 'model', created: 0, owned_by: 'anthropic', metadata: {} },
    ]);
  });
});
