import { expect } from 'chai';
import type { ChatUsage } from '../../core/types/chat.js';
import { openrouterCostUsd, openrouterUsage } from './openrouter-usage.js';

describe('provider-openai-compatible: OpenRouter usage', () => {
  it('takes usage.cost as the provider cost and cache writes from prompt_tokens_details (documented response)', () => {
    // The usage object of openrouter.ai/docs/use-cases/usage-accounting.
    const u: ChatUsage = {
      completion_tokens: 2,
      completion_tokens_details: { reasoning_tokens: 0 },
      cost: 0.95,
      cost_details: { upstream_inference_cost: 19 },
      prompt_tokens: 194,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 100, audio_tokens: 0 },
      total_tokens: 196,
    };
    expect(openrouterUsage(u)).to.deep.equal({
      input_tokens: 194,
      output_tokens: 2,
      total_tokens: 196,
      cached_input_tokens: 0,
      cache_write_tokens: 100,
      reasoning_tokens: 0,
      audio_input_tokens: 0,
      audio_output_tokens: 0,
      provider_cost_usd: 0.95,
      raw: u,
    });
  });

  it('maps cache reads and a zero cost (free models cost nothing, not an estimate)', () => {
    const u: ChatUsage = { prompt_tokens: 2048, completion_tokens: 10, total_tokens: 2058, prompt_tokens_details: { cached_tokens: 2000 }, cost: 0 };
    expect(openrouterUsage(u)).to.include({ cached_input_tokens: 2000, cache_write_tokens: 0, provider_cost_usd: 0 });
  });

  it('adds the upstream inference cost to the fee for BYOK calls', () => {
    const u: ChatUsage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cost: 0.1, is_byok: true, cost_details: { upstream_inference_cost: 0.2 } };
    expect(openrouterCostUsd(u)).to.equal(0.3);
  });

  it('leaves the cost unset when usage carries none (or garbage)', () => {
    expect(openrouterUsage({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 })).to.not.have.property('provider_cost_usd');
    expect(openrouterCostUsd({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: '0.1' })).to.equal(null);
    expect(openrouterCostUsd({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: -1 })).to.equal(null);
  });
});
