import { expect } from 'chai';
import { defaultPlugins } from '../helpers/plugins.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { testPlugin } from './test-plugin-entry.js';

const MESSAGES = [{ role: 'user' as const, content: 'Say hello' }];

describe('stage fit: a cache tap answers a stream @integration', () => {
  const fit = withOpenAIGateway(() => ({ plugins: [...defaultPlugins(), testPlugin('./stream-cache.test-plugin.ts')] }));

  const chatCalls = (): number => fit.mock.requests.filter((r) => r.path === '/v1/chat/completions').length;

  async function streamed(includeUsage: boolean): Promise<{ text: string; chunks: number; usageChunks: number; cache: string | null }> {
    const { data, response } = await fit.gw
      .client()
      .chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) })
      .withResponse();
    let text = '';
    let chunks = 0;
    let usageChunks = 0;
    for await (const chunk of data) {
      chunks++;
      if (chunk.usage) usageChunks++;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    return { text, chunks, usageChunks, cache: response.headers.get('x-cache') };
  }

  it('replays the first stream to the next identical call without calling the provider, and to a JSON call', async () => {
    const first = await streamed(false);
    expect(first).to.include({ text: 'Hello, World!', usageChunks: 0, cache: null });
    expect(chatCalls()).to.equal(1);

    const again = await streamed(false);
    // The role-and-text chunk and the finish chunk; the usage chunk is hidden from this client.
    expect(again).to.deep.equal({ text: 'Hello, World!', chunks: 2, usageChunks: 0, cache: 'hit' });
    const withUsage = await streamed(true);
    expect(withUsage).to.deep.equal({ text: 'Hello, World!', chunks: 3, usageChunks: 1, cache: 'hit' });

    const json = await fit.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }).withResponse();
    expect(json.data.choices[0]!.message.content).to.equal('Hello, World!');
    expect(json.data.usage?.total_tokens).to.equal(21);
    expect(json.response.headers.get('x-cache')).to.equal('hit');
    expect(chatCalls()).to.equal(1);
  });
});
