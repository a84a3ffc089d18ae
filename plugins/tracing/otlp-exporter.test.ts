// The OTLP/HTTP exporter against a local receiver: what it posts, where and with which headers;
// a refusal for now sent again, a refusal for good not; the log told once per failing streak;
// an export the collector never answers given up when its time is up.
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { expect } from 'chai';
import { memoryLogger } from '../../test/helpers/memory-logger.js';
import type { MemoryLogger } from '../../test/helpers/memory-logger.js';
import { startOtlpReceiver } from '../../test/helpers/otlp-receiver.js';
import type { OtlpReceiver } from '../../test/helpers/otlp-receiver.js';
import { OtlpJsonExporter } from './otlp-exporter.js';
import { otlpTraceBody } from './test-body.js';

function someSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer('sluice');
  tracer.startSpan('POST /v1/chat/completions', { attributes: { 'gen_ai.request.model': 'openai/gpt-4o-mini' } }).end();
  tracer.startSpan('chat gpt-4o-mini').end();
  return memory.getFinishedSpans();
}

describe('tracing: the OTLP/HTTP exporter', () => {
  let receiver: OtlpReceiver;
  let log: MemoryLogger;
  let exporter: OtlpJsonExporter;

  function start(options: { path?: string; timeoutMs?: number } = {}): OtlpJsonExporter {
    exporter = new OtlpJsonExporter({
      url: `${receiver.url}${options.path ?? '/v1/traces'}`,
      headers: { 'x-collector-token': 'col secret' },
      timeoutMs: options.timeoutMs ?? 10_000,
      logger: log.logger,
    });
    return exporter;
  }

  const send = (spans: ReadableSpan[]): Promise<ExportResult> => exporter.export(otlpTraceBody(spans)).then(
    () => ({ code: ExportResultCode.SUCCESS }),
    (error: Error) => ({ code: ExportResultCode.FAILED, error }),
  );

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
    log = memoryLogger();
  });
  afterEach(async () => {
    await exporter.shutdown();
    await receiver.close();
  });

  it('posts the batch as OTLP JSON to the traces URL, with the configured headers', async () => {
    start({ path: '/otlp/v1/traces?tenant=a' });
    const spans = someSpans();
    const result = await send(spans);
    expect(result.code).to.equal(ExportResultCode.SUCCESS);
    expect(receiver.received).to.have.length(1);
    const [got] = receiver.received;
    expect(got!.path).to.equal('/otlp/v1/traces?tenant=a');
    expect(got!.headers['content-type']).to.equal('application/json');
    expect(got!.headers['x-collector-token']).to.equal('col secret');
    expect(got!.text).to.equal(otlpTraceBody(spans).toString('utf8'));
    expect(got!.body.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name)).to.deep.equal(['POST /v1/chat/completions', 'chat gpt-4o-mini']);
    expect(log.lines).to.deep.equal([]);
  });

  it('sends a batch refused for now (503) again after the pause the collector asked for', async () => {
    start();
    receiver.answers.push({ status: 503, headers: { 'retry-after': '1' } });
    const began = Date.now();
    const result = await send(someSpans());
    expect(result.code).to.equal(ExportResultCode.SUCCESS);
    expect(Date.now() - began).to.be.at.least(1000);
    expect(receiver.received).to.have.length(2);
    expect(receiver.received[1]!.text).to.equal(receiver.received[0]!.text);
    expect(log.lines).to.deep.equal([]);
  });

  it('drops a batch refused for good (400) at once, and warns once until an export works again', async () => {
    start();
    receiver.answers.push({ status: 400 }, { status: 400 });
    const first = await send(someSpans());
    expect(first.code).to.equal(ExportResultCode.FAILED);
    expect(first.error?.message).to.equal('the collector answered 400: {"code":3,"message":"scripted refusal"}');
    expect((await send(someSpans())).code).to.equal(ExportResultCode.FAILED);
    expect(receiver.received).to.have.length(2);
    expect(log.lines).to.deep.equal(['warn trace export failed: spans are dropped until the collector takes them']);
    expect((await send(someSpans())).code).to.equal(ExportResultCode.SUCCESS);
    expect(log.lines).to.have.length(2);
    expect(log.lines[1]).to.equal('info trace export works again');
  });

  it('gives up on an export the collector never answers when its time is up', async () => {
    start({ timeoutMs: 300 });
    receiver.answers.push('hang');
    const began = Date.now();
    const result = await send(someSpans());
    expect(result.code).to.equal(ExportResultCode.FAILED);
    expect(Date.now() - began).to.be.within(300, 3000);
    expect(receiver.received).to.have.length(1);
  });
});
