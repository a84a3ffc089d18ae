// W3C Trace Context (`traceparent`) in and out: a client's header makes the gateway's span its
// child; the gateway's own span is what a provider is told, so its spans join the same trace.
import type { SpanContext } from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';

/** The client's span; undefined when it sent no `traceparent` (or a malformed one). */
export function clientSpanContext(traceparent: string | string[] | undefined): SpanContext | undefined {
  return typeof traceparent === 'string' ? parseTraceParent(traceparent) ?? undefined : undefined;
}

export function traceparentOf(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}
