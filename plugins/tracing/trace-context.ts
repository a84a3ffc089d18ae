// W3C Trace Context (`traceparent`) in and out: a client's header makes the gateway's span its
// child; the gateway's own span is what a provider is told, so its spans join the same trace.
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Context, SpanContext } from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';

/** The client's trace as a parent context; the root context when it sent none (or a malformed one). */
export function clientContext(traceparent: string | string[] | undefined): Context {
  if (typeof traceparent !== 'string') return ROOT_CONTEXT;
  const parent = parseTraceParent(traceparent);
  return parent === null ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, parent);
}

export function traceparentOf(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}
