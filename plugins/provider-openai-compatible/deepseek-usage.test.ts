import { expect } from 'chai';
import type { ChatUsage } from '../../core/types/chat.js';
import { deepseekUsage } from './deepseek-usage.js';

describe('provider-openai-compatible: DeepSeek usage', () => {
  it('maps cache hits to cached input tokens; prompt_tokens (= hits + misses) stays the input', () => {
    const u: ChatUsage = {
      prompt_tokens: 1200,
      completion_tokens: 50,
      total_tokens: 1250,
      prompt_tokens_details: { cached_tokens: 1024 },
      prompt_cache_hit_tokens: 1024,
      prompt_cache_miss_tokens: 176,
    };
    expect(deepseekUsage(u)).to.deep.equal({
      input_tokens: 1200,
      output_tokens: 50,
      total_tokens: 1250,
      cached_input_tokens: 1024,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      audio_input_tokens: 0,
      audio_output_tokens: 0,
      raw: u,
    });
  });

  it('reads the hits even when prompt_tokens_details is absent', () => {
    const u: ChatUsage = { prompt_tokens: 64, completion_tokens: 8, total_tokens: 72, prompt_cache_hit_tokens: 60, prompt_cache_miss_tokens: 4 };
    expect(deepseekUsage(u)).to.include({ input_tokens: 64, cached_input_tokens: 60, output_tokens: 8, total_tokens: 72 });
  });

  it('keeps deepseek-reasoner reasoning inside the completion tokens (documented example)', () => {
    // api-docs example of a deepseek-reasoner answer: 6 + 92 = 98, 81 of the 92 are reasoning.
    const u: ChatUsage = {
      prompt_tokens: 6,
      completion_tokens: 92,
      total_tokens: 98,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 81 },
      prompt_cache_hit_tokens: 0,
      prompt_cache_miss_tokens: 6,
    };
    expect(deepseekUsage(u)).to.include({ input_tokens: 6, cached_input_tokens: 0, output_tokens: 92, reasoning_tokens: 81, total_tokens: 98 });
  });

  it("falls back to OpenAI's cached_tokens when the DeepSeek fields are missing or not numbers", () => {
    const u: ChatUsage = { prompt_tokens: 30, completion_tokens: 2, total_tokens: 32, prompt_tokens_details: { cached_tokens: 12 }, prompt_cache_hit_tokens: 'many' };
    expect(deepseekUsage(u).cached_input_tokens).to.equal(12);
  });
});
