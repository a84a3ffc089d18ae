/** How the failover plugin orders a virtual model's targets for each call. */
export type Strategy = 'failover' | 'weighted' | 'lowest_latency';

export interface VirtualTargetOptions {
  /** A served model id (`anthropic/claude-3-5-haiku-latest`). */
  model: string;
  /** Share of calls under `weighted` (relative to the other targets' weights). */
  weight: number;
}

export interface VirtualModelOptions {
  /** The model id it stands for (`openai/gpt-4o-mini`): an alias, one target. */
  target?: string;
  /** Several targets, tried by `strategy` (the failover plugin); the first one lists the model. */
  targets?: VirtualTargetOptions[];
  strategy: Strategy;
  display_name?: string;
  description?: string;
  /** Metadata merged over the target's. */
  metadata?: Record<string, unknown>;
}

export interface RouterOptions {
  virtual_models: Record<string, VirtualModelOptions>;
  /** The catalog file, relative to the repository (config/catalog.yaml). */
  catalog: string;
  /** Metadata merged over the catalog's and the provider's, by model id. */
  model_overrides: Record<string, Record<string, unknown>>;
  discovery: {
    /** How often each provider's model list is fetched again. */
    refresh_interval_s: number;
    /** How soon a failed fetch is tried again. */
    retry_interval_s: number;
    timeout_ms: number;
    /** How long GET /v1/models waits for the first fetch after start. */
    first_list_wait_ms: number;
  };
}

export const routerSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    virtual_models: {
      type: 'object',
      default: {},
      propertyNames: { pattern: '^[^\\s]+$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        // Either an alias (`target`) or a list of targets (`targets`), never both.
        oneOf: [{ required: ['target'] }, { required: ['targets'] }],
        properties: {
          target: { type: 'string', pattern: '^[^/\\s]+/.+$' },
          targets: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['model'],
              properties: {
                model: { type: 'string', pattern: '^[^/\\s]+/.+$' },
                weight: { type: 'number', exclusiveMinimum: 0, default: 1 },
              },
            },
          },
          strategy: { enum: ['failover', 'weighted', 'lowest_latency'], default: 'failover' },
          display_name: { type: 'string' },
          description: { type: 'string' },
          metadata: { type: 'object' },
        },
      },
    },
    catalog: { type: 'string', minLength: 1, default: 'config/catalog.yaml' },
    model_overrides: {
      type: 'object',
      default: {},
      propertyNames: { pattern: '^[^/\\s]+/.+$' },
      additionalProperties: { type: 'object' },
    },
    discovery: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        refresh_interval_s: { type: 'integer', minimum: 10, default: 600 },
        retry_interval_s: { type: 'integer', minimum: 1, default: 30 },
        timeout_ms: { type: 'integer', minimum: 100, default: 10000 },
        first_list_wait_ms: { type: 'integer', minimum: 0, default: 5000 },
      },
    },
  },
} as const;
