// A span made whole when its request ended: every reading the gateway takes of a request is on
// its context by the log stage, so a span is written once, as the SDK's processors and exporters
// take a finished span (ReadableSpan), instead of being an SDK span kept open through the
// request. Measured end to end that was most of what tracing cost (bench/README.md, "Observability").
import { SpanStatusCode } from '@opentelemetry/api';
import type { Attributes, HrTime, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';

const OK: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
const NONE: never[] = [];

/** Where every span of this gateway comes from. */
export interface SpanSource {
  resource: Resource;
  scope: InstrumentationScope;
}

export interface SpanFacts {
  name: string;
  kind: SpanKind;
  context: SpanContext;
  parent: SpanContext | undefined;
  /** Epoch milliseconds, fractions included. */
  startMs: number;
  endMs: number;
  attributes: Attributes;
  /** A span in error: its message. */
  error?: string;
}

export class FinishedSpan implements ReadableSpan {
  readonly name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly attributes: Attributes;
  readonly status: SpanStatus;
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;
  readonly links = NONE;
  readonly events = NONE;
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly #context: SpanContext;
  readonly #startMs: number;
  readonly #endMs: number;

  constructor(source: SpanSource, facts: SpanFacts) {
    this.name = facts.name;
    this.kind = facts.kind;
    this.#context = facts.context;
    this.parentSpanContext = facts.parent;
    this.#startMs = facts.startMs;
    this.#endMs = Math.max(facts.startMs, facts.endMs);
    this.attributes = facts.attributes;
    this.status = facts.error === undefined ? OK : { code: SpanStatusCode.ERROR, message: facts.error };
    this.resource = source.resource;
    this.instrumentationScope = source.scope;
  }

  spanContext(): SpanContext {
    return this.#context;
  }

  // HrTime on demand: an exporter reads each once, and most spans are only ever exported.
  get startTime(): HrTime {
    return hrTime(this.#startMs);
  }

  get endTime(): HrTime {
    return hrTime(this.#endMs);
  }

  get duration(): HrTime {
    const micros = Math.round((this.#endMs - this.#startMs) * 1000);
    return [Math.floor(micros / 1e6), (micros % 1e6) * 1000];
  }
}

/** Epoch milliseconds as [seconds, nanoseconds], to the microsecond: a double of epoch ms holds no finer. */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  const micros = Math.round((ms - seconds * 1000) * 1000);
  return micros < 1e6 ? [seconds, micros * 1000] : [seconds + 1, (micros - 1e6) * 1000];
}
