// The OTLP JSON body written in one pass: the same text, byte for byte, as the SDK's own OTLP/HTTP
// exporter sends for the same spans (every kind of attribute value, events, links, a remote
// parent with its trace state, an error status, several resources and scopes), and one body
// checked against its literal text.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { HrTime } from '@opentelemetry/api';
import { ExportResultCode, TraceState } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { IdGenerator, ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { expect } from 'chai';
import { startOtlpReceiver } from '../../test/helpers/otlp-receiver.js';
import { otlpTraceBody } from './test-body.js';

/** Ids counted up from 1, so that a body's text can be written out. */
function countingIds(): IdGenerator {
  let next = 0;
  return {
    generateTraceId: () => (++next).toString(16).padStart(32, '0'),
    generateSpanId: () => (++next).toString(16).padStart(16, '0'),
  };
}

function recorder(resourceName: string): { provider: BasicTracerProvider; finished: () => ReadableSpan[] } {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': resourceName }),
    idGenerator: countingIds(),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  return { provider, finished: () => memory.getFinishedSpans() };
}

const T0: HrTime = [1764180000, 123456789];
const T1: HrTime = [1764180000, 987654321];

/** What the SDK's OTLP/HTTP JSON exporter sends for these spans, as received. */
async function sdkBody(spans: ReadableSpan[]): Promise<string> {
  const receiver = await startOtlpReceiver();
  try {
    const exporter = new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` });
    const result = await new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));
    expect(result.code).to.equal(ExportResultCode.SUCCESS);
    await exporter.shutdown();
    return receiver.received[0]!.text;
  } finally {
    await receiver.close();
  }
}

describe('tracing: the OTLP JSON body', () => {
  it('is the SDK exporter\'s text, byte for byte, for every kind of span content', async () => {
    const gateway = recorder('sluice');
    const other = recorder('other');
    const tracer = gateway.provider.getTracer('sluice');
    const versioned = gateway.provider.getTracer('plugin', '1.2.0', { schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
      traceState: new TraceState('vendor=opaque,other=1'),
    });
    // A long text (3 bytes a character for two of them) makes the body outgrow the room it was given.
    const server = tracer.startSpan('POST /v1/chat/completions', {
      kind: SpanKind.SERVER,
      startTime: T0,
      attributes: { 'http.route': '/v1/chat/completions', 'text.long': 'é✓x'.repeat(4000), 'text.escaped': 'quote " backslash \\ newline \n tab \t é ✓', 'int': 17, 'negative': -3, 'double': 0.00000495, 'big': 1e21, 'flag': false },
      links: [{ context: { traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 0 }, attributes: { 'link.reason': 'retry' } }],
    }, remote);
    server.setAttribute('list.strings', ['stop', 'length']);
    server.setAttribute('list.numbers', [1, 2.5]);
    server.setAttribute('list.bools', [true, false]);
    server.addEvent('first token', { 'bytes': 42 }, T0);
    server.addEvent('bare', T1);
    server.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream "failed"' });
    const attempt = tracer.startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, startTime: T0 }, trace.setSpan(ROOT_CONTEXT, server));
    attempt.setAttribute('http.route', '/v1/chat/completions');
    attempt.setAttribute('int', 18);
    attempt.end(T1);
    server.end(T1);
    // A span's time may carry a whole second in its nanoseconds (a rounded reading).
    versioned.startSpan('internal', { startTime: [1764180000, 1_000_000_000] }).end([1764180001, 5]);
    other.provider.getTracer('sluice').startSpan('elsewhere', { startTime: T0, attributes: { 'int': 17 } }).end(T1);
    const spans = [...gateway.finished(), ...other.finished()];
    expect(spans).to.have.length(4);
    expect(otlpTraceBody(spans).toString('utf8')).to.equal(await sdkBody(spans));
  });

  it('writes a span as this literal text', () => {
    const { provider, finished } = recorder('sluice');
    provider.getTracer('sluice').startSpan('chat gpt-4o-mini', { kind: SpanKind.CLIENT, startTime: T0, attributes: { 'gen_ai.usage.input_tokens': 17 } }).end(T1);
    expect(otlpTraceBody(finished()).toString('utf8')).to.equal(
      '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"sluice"}}],"droppedAttributesCount":0},'
      + '"scopeSpans":[{"scope":{"name":"sluice"},"spans":[{"traceId":"00000000000000000000000000000002","spanId":"0000000000000001",'
      + '"name":"chat gpt-4o-mini","kind":3,"startTimeUnixNano":"1764180000123456789","endTimeUnixNano":"1764180000987654321",'
      + '"attributes":[{"key":"gen_ai.usage.input_tokens","value":{"intValue":17}}],"droppedAttributesCount":0,"events":[],"droppedEventsCount":0,'
      + '"status":{"code":0},"links":[],"droppedLinksCount":0,"flags":257}]}]}]}',
    );
  });
});
