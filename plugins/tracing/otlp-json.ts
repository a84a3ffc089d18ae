// The OTLP/HTTP JSON body of a batch of spans, written span by span. The SDK's exporter builds an
// object tree per span (the OTLP transform), stringifies it, then encodes the text: that made the
// export the largest part of what tracing cost a request. Here each span's text goes into the
// body's bytes as soon as the span ends, while small (a batch's text as one string costs more to
// encode than to write). The bytes are the same, byte for byte: the fields, their order and
// what is left out follow @opentelemetry/otlp-transformer's JSON.
// https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding
import type { Attributes, AttributeValue, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-node';

/** Flags of a span or link: the W3C trace flags, plus whether the parent was remote. */
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

const NANOS_PER_SECOND = 1_000_000_000;

/** A span's text is about 1 KB with the gateway's attributes: room for a batch of the default size (512 spans). */
const BATCH_BYTES = 512 * 1280;

/** UTF-8 bytes appended to a buffer that grows when full. */
class BodyWriter {
  #bytes: Buffer;
  #length = 0;

  constructor(capacity: number) {
    this.#bytes = Buffer.allocUnsafe(capacity);
  }

  write(text: string): void {
    // A character is at most 3 bytes in UTF-8 (a surrogate pair, 4 bytes, is 2 characters).
    const most = text.length * 3;
    if (this.#length + most > this.#bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#length + most));
      this.#bytes.copy(grown, 0, 0, this.#length);
      this.#bytes = grown;
    }
    this.#length += this.#bytes.write(text, this.#length);
  }

  bytes(): Buffer {
    return this.#bytes.subarray(0, this.#length);
  }
}

/**
 * Spans as the OTLP body's bytes, written as each is added: a batch waiting for its export holds
 * bytes outside the JavaScript heap, not span objects that each scavenge copies until the export
 * (bench/README.md, "Observability"). Spans are grouped by resource, then by instrumentation
 * scope, as the body has them.
 */
export class SpanBatch {
  readonly #byResource = new Map<Resource, Map<string, ScopeGroup>>();
  #count = 0;

  get count(): number {
    return this.#count;
  }

  add(span: ReadableSpan): void {
    let byScope = this.#byResource.get(span.resource);
    if (byScope === undefined) this.#byResource.set(span.resource, (byScope = new Map()));
    const scope = span.instrumentationScope;
    const key = `${scope.name}@${scope.version ?? ''}:${scope.schemaUrl ?? ''}`;
    let group = byScope.get(key);
    if (group === undefined) byScope.set(key, (group = { scope, spans: new BodyWriter(BATCH_BYTES), empty: true }));
    if (group.empty) group.empty = false;
    else group.spans.write(',');
    group.spans.write(spanJson(span));
    this.#count++;
  }

  /** `{"resourceSpans":[…]}` */
  body(): Buffer {
    const parts: Buffer[] = [];
    const text = (t: string): void => {
      parts.push(Buffer.from(t, 'utf8'));
    };
    text('{"resourceSpans":[');
    let firstResource = true;
    for (const [resource, byScope] of this.#byResource) {
      const schemaUrl = resource.schemaUrl ? `,"schemaUrl":${JSON.stringify(resource.schemaUrl)}` : '';
      text(`${firstResource ? '' : ','}{"resource":{"attributes":${attributesJson(resource.attributes)},"droppedAttributesCount":0${schemaUrl}},"scopeSpans":[`);
      firstResource = false;
      let firstScope = true;
      for (const { scope, spans } of byScope.values()) {
        const version = scope.version === undefined ? '' : `,"version":${JSON.stringify(scope.version)}`;
        text(`${firstScope ? '' : ','}{"scope":{"name":${JSON.stringify(scope.name)}${version}},"spans":[`);
        firstScope = false;
        parts.push(spans.bytes());
        text(scope.schemaUrl === undefined ? ']}' : `],"schemaUrl":${JSON.stringify(scope.schemaUrl)}}`);
      }
      text(`]${schemaUrl}}`);
    }
    text(']}');
    return Buffer.concat(parts);
  }
}

interface ScopeGroup {
  scope: InstrumentationScope;
  spans: BodyWriter;
  empty: boolean;
}

function spanJson(span: ReadableSpan): string {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  let out = `{"traceId":"${context.traceId}","spanId":"${context.spanId}"`;
  if (parent?.spanId) out += `,"parentSpanId":"${parent.spanId}"`;
  out += traceStateJson(context);
  const status = span.status;
  const message = status.message === undefined ? '' : `,"message":${JSON.stringify(status.message)}`;
  return `${out},"name":${JSON.stringify(span.name)},"kind":${span.kind + 1},"startTimeUnixNano":"${unixNanos(span.startTime)}","endTimeUnixNano":"${unixNanos(span.endTime)}",`
    + `"attributes":${attributesJson(span.attributes)},"droppedAttributesCount":${span.droppedAttributesCount},`
    + `"events":[${span.events.map(eventJson).join(',')}],"droppedEventsCount":${span.droppedEventsCount},`
    + `"status":{"code":${status.code}${message}},"links":[${span.links.map(linkJson).join(',')}],"droppedLinksCount":${span.droppedLinksCount},`
    + `"flags":${flags(context.traceFlags, parent?.isRemote)}}`;
}

function eventJson(event: TimedEvent): string {
  return `{"attributes":${attributesJson(event.attributes ?? {})},"name":${JSON.stringify(event.name)},"timeUnixNano":"${unixNanos(event.time)}","droppedAttributesCount":${event.droppedAttributesCount || 0}}`;
}

function linkJson(link: Link): string {
  const context = link.context;
  return `{"attributes":${attributesJson(link.attributes ?? {})},"spanId":"${context.spanId}","traceId":"${context.traceId}"${traceStateJson(context)},`
    + `"droppedAttributesCount":${link.droppedAttributesCount || 0},"flags":${flags(context.traceFlags, context.isRemote)}}`;
}

function traceStateJson(context: SpanContext): string {
  return context.traceState === undefined ? '' : `,"traceState":${JSON.stringify(context.traceState.serialize())}`;
}

function flags(traceFlags: number, remote: boolean | undefined): number {
  return (traceFlags & 0xff) | HAS_IS_REMOTE | (remote ? IS_REMOTE : 0);
}

function attributesJson(attributes: Attributes): string {
  let out = '[';
  let first = true;
  for (const key in attributes) {
    if (first) first = false;
    else out += ',';
    out += attributeJson(key, attributes[key]);
  }
  return `${out}]`;
}

/** An attribute key's JSON, and the last value written under it with its JSON. */
interface KeyJson {
  prefix: string;
  value: AttributeValue | undefined;
  json: string;
}

// Most attributes repeat from span to span (the route, the provider, the model): each key
// remembers its last value's text. Keys come from code, but a cap keeps a stray one harmless.
const KEYS = new Map<string, KeyJson>();
const MAX_KEYS = 512;

function attributeJson(key: string, value: AttributeValue | undefined): string {
  const known = KEYS.get(key);
  if (known === undefined) {
    if (KEYS.size >= MAX_KEYS) KEYS.clear();
    const prefix = `{"key":${JSON.stringify(key)},"value":`;
    const json = `${prefix}${anyValueJson(value)}}`;
    KEYS.set(key, { prefix, value, json });
    return json;
  }
  // An array is compared by identity only: its text is written again each time.
  if (known.value !== value || Array.isArray(value)) {
    known.value = value;
    known.json = `${known.prefix}${anyValueJson(value)}}`;
  }
  return known.json;
}

/** An OTLP AnyValue: an integer is an intValue, any other number a doubleValue. */
function anyValueJson(value: AttributeValue | null | undefined): string {
  switch (typeof value) {
    case 'string': return `{"stringValue":${JSON.stringify(value)}}`;
    case 'number': return Number.isInteger(value) ? `{"intValue":${value}}` : `{"doubleValue":${JSON.stringify(value)}}`;
    case 'boolean': return `{"boolValue":${value}}`;
  }
  if (Array.isArray(value)) return `{"arrayValue":{"values":[${value.map(anyValueJson).join(',')}]}}`;
  return '{}';
}

/** Seconds and nanoseconds as one decimal: more digits than a double holds exactly, so written as text. */
function unixNanos([seconds, nanos]: HrTime): string {
  if (seconds > 0 && Number.isInteger(seconds) && Number.isInteger(nanos) && nanos >= 0 && nanos < NANOS_PER_SECOND) {
    return `${seconds}${String(nanos).padStart(9, '0')}`;
  }
  return (BigInt(Math.trunc(seconds)) * BigInt(NANOS_PER_SECOND) + BigInt(Math.trunc(nanos))).toString();
}
