import { expect } from 'chai';
import { UpstreamClient } from '../../core/http-client.js';
import { createLogger } from '../../core/logger.js';
import { compatibleProvider } from './compatible-provider.js';
import { PROVIDERS } from './providers-table.js';

const upstream = new UpstreamClient({ connect_timeout_ms: 1000, first_byte_timeout_ms: 1000, idle_timeout_ms: 1000, connections_per_origin: null, queue_timeout_ms: 1000, max_buffered_answer_bytes: 1024 * 1024 }, createLogger('error'));

describe('provider-openai-compatible: the providers table', () => {
  after(() => upstream.close());

  it('has the family of docs/api.md with their verified public URLs and native operations', () => {
    const facts = PROVIDERS.map((r) => [r.type, r.enabledBy, r.defaultBaseUrl ?? null, r.operations.join('+'), r.streamUsageOption ?? true]);
    expect(facts).to.deep.equal([
      ['groq', 'api_key', 'https://api.groq.com/openai/v1', 'chat+responses', true],
      ['mistral', 'api_key', 'https://api.mistral.ai/v1', 'chat+embeddings', false],
      ['xai', 'api_key', 'https://api.x.ai/v1', 'chat+responses', true],
      ['deepseek', 'api_key', 'https://api.deepseek.com', 'chat', true],
      ['openrouter', 'api_key', 'https://openrouter.ai/api/v1', 'chat+embeddings', true],
      ['together', 'api_key', 'https://api.together.ai/v1', 'chat+embeddings', true],
      ['fireworks', 'api_key', 'https://api.fireworks.ai/inference/v1', 'chat+responses+embeddings', true],
      ['ollama', 'base_url', null, 'chat+embeddings', true],
      ['vllm', 'base_url', null, 'chat+embeddings', true],
      ['llamacpp', 'base_url', null, 'chat+embeddings', true],
      ['lmstudio', 'base_url', null, 'chat+embeddings', true],
    ]);
  });

  it('builds each row as a provider with exactly its native operations', () => {
    for (const row of PROVIDERS) {
      const p = compatibleProvider(upstream, row, { name: `my-${row.type}`, type: row.type, apiKey: 'sk-x', baseUrl: 'http://127.0.0.1:9/v1', options: {} });
      expect(p.name).to.equal(`my-${row.type}`);
      expect(p.type).to.equal(row.type);
      expect(Object.keys(p.operations).filter((op) => p.operations[op] !== undefined), row.type).to.deep.equal([...row.operations]);
      expect(Object.isFrozen(p.operations), row.type).to.equal(true);
      expect(p.passthrough).to.deep.equal({ baseUrl: 'http://127.0.0.1:9/v1', authHeaders: { authorization: 'Bearer sk-x' } });
    }
  });

  it('sends no credential for a self-hosted server without a key', () => {
    const row = PROVIDERS.find((r) => r.type === 'ollama')!;
    const p = compatibleProvider(upstream, row, { name: 'ollama', type: 'ollama', apiKey: null, baseUrl: 'http://127.0.0.1:11434/v1', options: {} });
    expect(p.passthrough?.authHeaders).to.deep.equal({});
  });
});
