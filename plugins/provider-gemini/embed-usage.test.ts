import { expect } from 'chai';
import { splitBatches } from './embed-batches.js';
import { estimateEmbedUsage, estimateTokens } from './embed-usage.js';
import { toGeminiEmbedRequest } from './embeddings.js';

describe('estimateEmbedUsage', () => {
  it('counts a token per 4 UTF-8 bytes, rounded up per input, and marks the usage as estimated', () => {
    // 44 and 45 bytes: 11 + 12 tokens.
    const request = toGeminiEmbedRequest(
      { model: 'x', input: ['The quick brown fox jumps over the lazy dog.', 'A fast auburn fox leaps above a sleepy hound.'] },
      'gemini-embedding-001',
    );
    expect(estimateEmbedUsage(request)).to.deep.equal({
      input_tokens: 23, output_tokens: 0, total_tokens: 23, cached_input_tokens: 0, cache_write_tokens: 0,
      reasoning_tokens: 0, audio_input_tokens: 0, audio_output_tokens: 0,
      raw: { estimated: true, method: 'ceil(utf8_bytes / 4) per input' },
    });
  });

  it('counts multi-byte scripts by their bytes and never rounds a non-empty text to 0', () => {
    expect(estimateTokens('日本語')).to.equal(3); // 9 bytes
    expect(estimateTokens('a')).to.equal(1);
    expect(estimateTokens('')).to.equal(0);
  });
});

describe('splitBatches', () => {
  it('cuts requests into batches of at most 100, in order', () => {
    const request = toGeminiEmbedRequest({ model: 'x', input: Array.from({ length: 205 }, (_, i) => `t${i}`) }, 'm');
    const batches = splitBatches(request);
    expect(batches.map((b) => b.requests.length)).to.deep.equal([100, 100, 5]);
    expect(batches[2]?.requests[4]?.content.parts[0]?.text).to.equal('t204');
    expect(splitBatches(toGeminiEmbedRequest({ model: 'x', input: 'one' }, 'm'))).to.have.length(1);
  });
});
