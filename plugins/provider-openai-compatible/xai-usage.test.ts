import { expect } from 'chai';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import type { ChatCompletion, ChatUsage } from '../../core/types/chat.js';
import type { ResponseObject } from '../../core/types/responses.js';
import { usageFromResponses } from '../../core/usage-mapping.js';
import { withXaiCost, xaiChatUsage } from './xai-usage.js';

describe('provider-openai-compatible: xAI usage', () => {
  it('puts reasoning back inside the output tokens and reads the billed cost (recorded grok-3-mini chat)', () => {
    const completion = fixtureJson<ChatCompletion>('recorded/xai/chat_completion.json');
    expect(xaiChatUsage(completion.usage!)).to.deep.equal({
      input_tokens: 10,
      output_tokens: 410,
      total_tokens: 420,
      cached_input_tokens: 3,
      cache_write_tokens: 0,
      reasoning_tokens: 375,
      audio_input_tokens: 0,
      audio_output_tokens: 0,
      provider_cost_usd: 0.000207325,
      raw: completion.usage,
    });
  });

  it('does the same for the second recorded answer', () => {
    const completion = fixtureJson<ChatCompletion>('recorded/xai/chat_with_params.json');
    expect(xaiChatUsage(completion.usage!)).to.include({ input_tokens: 19, output_tokens: 179, reasoning_tokens: 173, cached_input_tokens: 4, total_tokens: 198, provider_cost_usd: 0.0000943 });
  });

  it('adds nothing when the total shows reasoning is already inside completion_tokens', () => {
    const u: ChatUsage = { prompt_tokens: 10, completion_tokens: 40, total_tokens: 50, completion_tokens_details: { reasoning_tokens: 30 } };
    expect(xaiChatUsage(u)).to.include({ output_tokens: 40, reasoning_tokens: 30, total_tokens: 50 });
    expect(xaiChatUsage(u)).to.not.have.property('provider_cost_usd');
  });

  it('reads the billed cost of a Responses answer, whose tokens are already counted the OpenAI way', () => {
    const response = fixtureJson<ResponseObject>('recorded/xai/responses.json');
    expect(withXaiCost(usageFromResponses(response.usage!))).to.include({
      input_tokens: 17,
      output_tokens: 276,
      reasoning_tokens: 272,
      cached_input_tokens: 3,
      total_tokens: 293,
      provider_cost_usd: 0.000142425,
    });
  });
});
