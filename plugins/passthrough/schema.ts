// The passthrough plugin's options, checked once at boot (ajv applies the defaults).

export interface PassthroughOptions {
  /**
   * How many bytes of each request and response body are kept for the audit log and for
   * reading the model and usage; the rest streams through unrecorded (and is flagged).
   */
  capture_limit_bytes: number;
}

export const passthroughSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    capture_limit_bytes: { type: 'integer', minimum: 0, default: 1_048_576 },
  },
} as const;
