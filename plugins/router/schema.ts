export interface VirtualModelOptions {
  /** The model id it stands for (`openai/gpt-4o-mini`). */
  target: string;
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
        required: ['target'],
        properties: {
          target: { type: 'string', pattern: '^[^/\\s]+/.+$' },
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
