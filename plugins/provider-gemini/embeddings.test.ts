import { expect } from 'chai';
import { isGatewayError } from '../../core/errors.js';
import type { EmbeddingsRequest } from '../../core/types/embeddings.js';
import { emptyUsage } from '../../core/types/usage.js';
import { fromGeminiEmbedResponse, toGeminiEmbedRequest } from './embeddings.js';
import { fixtureJson } from './test-fixtures.js';
import type { GeminiBatchEmbedRequest, GeminiEmbedResponse } from './types.js';

const INPUTS = ['The quick brown fox jumps over the lazy dog.', 'A fast auburn fox leaps above a sleepy hound.'];

function decodeFloat32(base64: string): number[] {
  const bytes = Buffer.from(base64, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
}

describe('toGeminiEmbedRequest', () => {
  it('builds a batchEmbedContents body with the model and dimensions on every request', () => {
    const req: EmbeddingsRequest = { model: 'gemini/gemini-embedding-001', input: INPUTS, dimensions: 8 };
    expect(toGeminiEmbedRequest(req, 'gemini-embedding-001')).to.deep.equal(fixtureJson<GeminiBatchEmbedRequest>('batch-embed-request.json'));
  });

  it('takes a single string and a model already in models/ form', () => {
    expect(toGeminiEmbedRequest({ model: 'x', input: 'hello' }, 'models/text-embedding-004')).to.deep.equal({
      requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'hello' }] } }],
    });
  });

  it('rejects token-id and empty input', () => {
    for (const input of [[1, 2, 3], [[1, 2]], []]) {
      try {
        toGeminiEmbedRequest({ model: 'x', input } as EmbeddingsRequest, 'gemini-embedding-001');
        expect.fail('expected a rejection');
      } catch (err) {
        expect(isGatewayError(err) && err.status === 400 && err.param === 'input', JSON.stringify(input)).to.equal(true);
      }
    }
  });
});

describe('fromGeminiEmbedResponse', () => {
  const res = fixtureJson<GeminiEmbedResponse>('batch-embed-response.json');
  const usage = { ...emptyUsage(), input_tokens: 23, total_tokens: 23 };

  it('returns float vectors in input order, with the usage it was given', () => {
    expect(fromGeminiEmbedResponse(res, 'gemini/gemini-embedding-001', 'float', usage)).to.deep.equal({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [-0.0227, 0.0105, 0.0141, -0.0632, 0.0046, -0.0189, 0.0073, 0.0318] },
        { object: 'embedding', index: 1, embedding: [-0.0198, 0.0121, 0.0117, -0.0594, 0.0069, -0.0172, 0.0051, 0.0287] },
      ],
      model: 'gemini/gemini-embedding-001',
      usage: { prompt_tokens: 23, total_tokens: 23 },
    });
  });

  it('encodes base64 as little-endian float32 bytes', () => {
    const response = fromGeminiEmbedResponse({ embedding: { values: [1, -2, 0.5] } }, 'm', 'base64', usage);
    expect(response.data).to.deep.equal([{ object: 'embedding', index: 0, embedding: 'AACAPwAAAMAAAAA/' }]);

    const fixture = fromGeminiEmbedResponse(res, 'm', 'base64', usage).data[1]?.embedding;
    expect(typeof fixture).to.equal('string');
    expect(decodeFloat32(String(fixture))).to.deep.equal(res.embeddings?.[1]?.values.map(Math.fround));
  });
});
