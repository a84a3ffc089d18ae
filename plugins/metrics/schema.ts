// The metrics plugin's options, checked once at boot (ajv applies the defaults).

export interface MetricsOptions {
  /** Where the Prometheus text is served. */
  path: string;
  /** A port of its own for the metrics (null: the gateway's port). */
  port: number | null;
  /** The address of that port (null: the gateway's host). */
  host: string | null;
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  bearer_token: string | null;
  /** Label requests, tokens and cost by the calling key: its id, its name, or not at all. */
  key_label: 'none' | 'id' | 'name';
  /** Request labels (tagging) to add as metric labels, each as `label_<name>`. */
  labels: string[];
  /** Distinct values kept per opted-in label (and for keys); later values count as `other`. */
  max_label_values: number;
  /** Distinct model ids kept; later ones count as `other` (a client may name any model of a prefix). */
  max_models: number;
}

export const metricsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: { type: 'string', pattern: '^/', default: '/metrics' },
    port: { type: ['integer', 'null'], minimum: 0, maximum: 65535, default: null },
    host: { type: ['string', 'null'], minLength: 1, default: null },
    bearer_token: { type: ['string', 'null'], default: null },
    key_label: { enum: ['none', 'id', 'name'], default: 'none' },
    labels: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$' }, default: [] },
    max_label_values: { type: 'integer', minimum: 1, maximum: 10000, default: 100 },
    max_models: { type: 'integer', minimum: 1, maximum: 10000, default: 200 },
  },
} as const;
