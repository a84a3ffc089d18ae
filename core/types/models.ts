// Model list and metadata shapes of `GET /v1/models` (docs/api.md, "Client API").
import type { Pricing } from './pricing.js';

export interface ModelMetadata {
  display_name?: string;
  description?: string;
  family?: string;
  context_window?: number;
  max_output_tokens?: number;
  modes?: string[];
  categories?: string[];
  tags?: string[];
  capabilities?: Record<string, unknown>;
  /** Absent or null: the price is unknown (never read as free). */
  pricing?: Pricing | null;
  pricing_sources?: Record<string, unknown>;
  rankings?: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface Model {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  metadata: ModelMetadata;
}

export interface ModelList {
  object: 'list';
  data: Model[];
}
