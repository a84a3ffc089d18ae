import { expect } from 'chai';
import type { Model } from '../../core/types/models.js';
import { fromGeminiModelList } from './models.js';
import { fixtureJson } from './test-fixtures.js';
import type { GeminiModelList } from './types.js';

describe('fromGeminiModelList', () => {
  it('lists chat and embedding models under the prefix and leaves the rest out', () => {
    const expected: Model[] = [
      {
        id: 'gemini/gemini-2.5-flash',
        object: 'model',
        created: 0,
        owned_by: 'google',
        metadata: {
          modes: ['chat'],
          display_name: 'Gemini 2.5 Flash',
          description: 'Stable version of Gemini 2.5 Flash, our mid-size multimodal model that supports up to 1 million tokens, released in June of 2025.',
          context_window: 1048576,
          max_output_tokens: 65536,
          capabilities: { reasoning: true },
        },
      },
      {
        id: 'gemini/gemini-2.0-flash',
        object: 'model',
        created: 0,
        owned_by: 'google',
        metadata: {
          modes: ['chat'],
          display_name: 'Gemini 2.0 Flash',
          description: 'Gemini 2.0 Flash',
          context_window: 1048576,
          max_output_tokens: 8192,
        },
      },
      {
        id: 'gemini/gemini-embedding-001',
        object: 'model',
        created: 0,
        owned_by: 'google',
        metadata: {
          modes: ['embeddings'],
          display_name: 'Gemini Embedding 001',
          description: 'Obtain a distributed representation of a text.',
          context_window: 2048,
          max_output_tokens: 1,
        },
      },
    ];
    expect(fromGeminiModelList(fixtureJson<GeminiModelList>('models-list.json'), 'gemini')).to.deep.equal(expected);
  });

  it('gives both modes to a model that serves both, and nothing for an empty list', () => {
    const [model] = fromGeminiModelList({ models: [{ name: 'models/x', supportedGenerationMethods: ['embedContent', 'generateContent'] }] }, 'g');
    expect(model).to.deep.equal({ id: 'g/x', object: 'model', created: 0, owned_by: 'google', metadata: { modes: ['chat', 'embeddings'] } });
    expect(fromGeminiModelList({}, 'g')).to.deep.equal([]);
  });
});
