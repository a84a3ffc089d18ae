// The tracing plugin's options, checked once at boot (ajv applies the defaults). Where spans
// go and which are kept is the OpenTelemetry standard environment's (otel-env.ts).

export interface TracingOptions {
  /** `otlp`: OTLP/HTTP to OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT; `none`: spans are made (trace ids reach the audit) but not sent. */
  exporter: 'otlp' | 'none';
  /**
   * Send the trace context (`traceparent`) to providers on translated routes too. Passthrough
   * calls always carry it: the client speaks the provider's API there, as if it called it itself.
   */
  propagate_translated: boolean;
}

export const tracingSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    exporter: { enum: ['otlp', 'none'], default: 'otlp' },
    propagate_translated: { type: 'boolean', default: false },
  },
} as const;
