import { expect } from 'chai';
import { withPluginOptions } from '../helpers/plugins.js';
import { recordedCalls } from './call-recorder.test-plugin.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { testPlugin } from './test-plugin-entry.js';

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];
// $1 and $2 a million tokens, so the recorded answers' 17 input and 4 output tokens cost $0.000025.
const PRICING = { currency: 'USD', input_per_mtok: 1, output_per_mtok: 2 };

describe('stage fit: a log tap sees the final cost @integration', () => {
  const fit = withOpenAIGateway(() => ({
    plugins: [...withPluginOptions('router', { model_overrides: { 'openai/gpt-4o-mini': { pricing: PRICING } } }), testPlugin('./call-recorder.test-plugin.ts')],
  }));

  it('of a JSON answer and of a stream whose client did not ask for usage', async () => {
    recordedCalls.length = 0;
    const json = await fit.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES });
    const stream = await fit.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true });
    for await (const chunk of stream) expect(chunk.usage ?? null).to.equal(null);
    expect(recordedCalls.map((c) => [c.id === json.id ? 'json' : c.stream ? 'stream' : 'json', c.status, c.usage?.input_tokens, c.usage?.output_tokens, c.cost?.total_usd, c.cost?.source])).to.deep.equal([
      ['json', 200, 17, 4, '0.000025', 'computed'],
      ['stream', 200, 17, 4, '0.000025', 'computed'],
    ]);
  });
});
