// GET /v1/models as clients see it: discovered models with catalog metadata and prices (an
// unknown price stated as null, never 0), operator overrides, and virtual models that list and
// route like any other.
import { expect } from 'chai';
import type { MockProvider } from '../helpers/mock-provider.js';
import { openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { withPluginOptions } from '../helpers/plugins.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

interface Model {
  id: string;
  object: string;
  owned_by: string;
  metadata: { pricing?: Record<string, unknown> | null; display_name?: string; context_window?: number; virtual?: boolean; target?: string };
}

describe('model list, catalog and virtual models @integration', () => {
  let mock: MockProvider;
  let gw: TestGateway;

  before(async () => {
    mock = await startOpenAIMock();
    gw = await startTestGateway({
      env: openAIEnv(mock),
      config: {
        plugins: withPluginOptions('router', {
          virtual_models: { fast: { target: 'openai/gpt-4o-mini', display_name: 'Fast and cheap' } },
          model_overrides: { 'openai/gpt-4o': { pricing: { currency: 'USD', input_per_mtok: 2, output_per_mtok: 8 } } },
        }),
      },
    });
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });

  async function models(): Promise<Model[]> {
    return (await gw.client().models.list()).data as unknown as Model[];
  }

  it('lists discovered models with their catalog metadata and prices', async () => {
    const mini = (await models()).find((m) => m.id === 'openai/gpt-4o-mini')!;
    expect(mini.object).to.equal('model');
    expect(mini.metadata.display_name).to.equal('GPT-4o mini');
    expect(mini.metadata.context_window).to.equal(128000);
    expect(mini.metadata.pricing).to.deep.include({ input_per_mtok: 0.15, output_per_mtok: 0.6, cached_input_per_mtok: 0.075 });
  });

  it('states an unknown price as null for a discovered model the catalog lacks', async () => {
    const babbage = (await models()).find((m) => m.id === 'openai/babbage-002')!;
    expect(babbage.metadata).to.have.property('pricing', null);
  });

  it("applies the operator's overrides over the catalog", async () => {
    const gpt4o = (await models()).find((m) => m.id === 'openai/gpt-4o')!;
    expect(gpt4o.metadata.pricing).to.deep.equal({ currency: 'USD', input_per_mtok: 2, output_per_mtok: 8 });
  });

  it('lists a virtual model with its target and the target metadata', async () => {
    const fast = (await models()).find((m) => m.id === 'fast')!;
    expect(fast.owned_by).to.equal('sluice');
    expect(fast.metadata).to.deep.include({ virtual: true, target: 'openai/gpt-4o-mini', display_name: 'Fast and cheap', context_window: 128000 });
    expect(fast.metadata.pricing).to.deep.include({ input_per_mtok: 0.15 });
  });

  it('routes a virtual model to its target', async () => {
    const res = await gw.client().chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(res.data.choices[0]!.message.content).to.equal('Hello, World!');
    expect((mock.last().json as { model: string }).model).to.equal('gpt-4o-mini');
    expect(res.response.headers.get('x-gateway-provider')).to.equal('openai');
    expect(res.response.headers.get('x-gateway-model')).to.equal('gpt-4o-mini');
  });

  it('answers one model by id, with its slash raw or encoded, and 404 for an unknown one', async () => {
    for (const path of ['/v1/models/openai/gpt-4o-mini', '/v1/models/openai%2Fgpt-4o-mini']) {
      const res = await gw.fetch(path);
      expect(res.status).to.equal(200);
      expect(((await res.json()) as Model).id).to.equal('openai/gpt-4o-mini');
    }
    const missing = await gw.fetch('/v1/models/openai%2Fnope');
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ error: { message: "model 'openai/nope' does not exist or is not served by this gateway", type: 'not_found_error', code: 'model_not_found', param: 'model' } });
  });
});
