// The demo's models, with the metadata and prices a real catalog entry has, so that cost is
// visible from the first request.
import type { Model } from '../../core/types/models.js';

const CREATED = 1735689600; // 2025-01-01


export function demoModels(prefix: string): Model[] {
  return [
    {
      id: `${prefix}/echo`,
      object: 'model',
      created: CREATED,
      owned_by: 'sluice-demo',
      metadata: {
        display_name: 'Demo Echo',
        description: 'Offline demo model: answers with the last user message. Also serves embeddings.',
        family: 'demo',
        context_window: 128000,
        max_output_tokens: 16384,
        modes: ['chat', 'embeddings'],
        capabilities: { streaming: true, tools: false, vision: false, embeddings: true },
        pricing: { currency: 'USD', input_per_mtok: 0.15, output_per_mtok: 0.6, cached_input_per_mtok: 0.075 },
        pricing_sources: { input_per_mtok: 'demo' },
        tags: ['demo', 'offline'],
      },
    },
    {
      id: `${prefix}/lorem`,
      object: 'model',
      created: CREATED,
      owned_by: 'sluice-demo',
      metadata: {
        display_name: 'Demo Lorem',
        description: 'Offline demo model: answers with lorem ipsum, as long as max_tokens allows (60 tokens by default).',
        family: 'demo',
        context_window: 128000,
        max_output_tokens: 4096,
        modes: ['chat', 'embeddings'],
        capabilities: { streaming: true, tools: false, vision: false, embeddings: true },
        pricing: { currency: 'USD', input_per_mtok: 2.5, output_per_mtok: 10, cached_input_per_mtok: 1.25 },
        pricing_sources: { input_per_mtok: 'demo' },
        tags: ['demo', 'offline'],
      },
    },
  ];
}
