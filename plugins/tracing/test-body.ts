// Tests only: the OTLP body a batch of these spans is sent as.
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { SpanBatch } from './otlp-json.js';

export function otlpTraceBody(spans: readonly ReadableSpan[]): Buffer {
  const batch = new SpanBatch();
  for (const span of spans) batch.add(span);
  return batch.body();
}
