// The batch span processor against a local OTLP receiver: a full batch goes at once, a partial
// one after the delay, spans past the queue's size are dropped with one warning, an unsampled
// span is not sent, and shutdown sends what is left. Spans are the plugin's own FinishedSpans.
import { SpanKind, TraceFlags } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { expect } from 'chai';
import { memoryLogger } from '../../test/helpers/memory-logger.js';
import type { MemoryLogger } from '../../test/helpers/memory-logger.js';
import { startOtlpReceiver } from '../../test/helpers/otlp-receiver.js';
import type { OtlpReceiver } from '../../test/helpers/otlp-receiver.js';
import { OtlpBatchProcessor } from './batch-processor.js';
import { FinishedSpan } from './finished-span.js';
import type { SpanFacts } from './finished-span.js';
import type { BatchLimits } from './otel-env.js';
import { OtlpJsonExporter } from './otlp-exporter.js';

const SOURCE = { resource: resourceFromAttributes({ 'service.name': 'sluice' }), scope: { name: 'sluice' } };
const T0 = 1764180000123.456;

function facts(n: number, traceFlags = TraceFlags.SAMPLED): SpanFacts {
  return {
    name: `span ${n}`,
    kind: SpanKind.SERVER,
    context: { traceId: '1'.repeat(32), spanId: n.toString(16).padStart(16, '0'), traceFlags },
    parent: undefined,
    startMs: T0,
    endMs: T0 + 1.5,
    attributes: { n },
  };
}

function span(n: number, traceFlags = TraceFlags.SAMPLED): FinishedSpan {
  return new FinishedSpan(SOURCE, facts(n, traceFlags));
}

describe('tracing: the batch span processor', () => {
  let receiver: OtlpReceiver;
  let log: MemoryLogger;
  let processor: OtlpBatchProcessor;

  function start(limits: Partial<BatchLimits>): OtlpBatchProcessor {
    const exporter = new OtlpJsonExporter({ url: `${receiver.url}/v1/traces`, headers: {}, timeoutMs: 2000, logger: log.logger });
    processor = new OtlpBatchProcessor(exporter, { scheduledDelayMs: 60_000, maxQueueSize: 2048, maxExportBatchSize: 512, ...limits }, log.logger);
    return processor;
  }

  const names = (i: number): string[] => receiver.received[i]!.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((x) => x.name)));
  const until = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
    log = memoryLogger();
  });
  afterEach(async () => {
    await processor.shutdown();
    await receiver.close();
  });

  it('sends a full batch at once, in the order the spans ended, and keeps the rest for later', async () => {
    start({ maxExportBatchSize: 3 });
    for (let n = 1; n <= 4; n++) processor.onEnd(span(n));
    await until(() => receiver.received.length === 1);
    expect(receiver.received).to.have.length(1);
    expect(names(0)).to.deep.equal(['span 1', 'span 2', 'span 3']);
    await processor.forceFlush();
    expect(names(1)).to.deep.equal(['span 4']);
  });

  it('sends a partial batch once it has waited the delay', async () => {
    start({ scheduledDelayMs: 50 });
    processor.onEnd(span(1));
    processor.onEnd(span(2));
    expect(receiver.received).to.have.length(0);
    await until(() => receiver.received.length === 1);
    expect(names(0)).to.deep.equal(['span 1', 'span 2']);
  });

  it('writes each span as the OTLP JSON of its facts', async () => {
    start({});
    processor.onEnd(span(7));
    await processor.forceFlush();
    const [sent] = receiver.received[0]!.body.resourceSpans[0]!.scopeSpans[0]!.spans as unknown as Array<Record<string, unknown>>;
    expect(sent).to.deep.include({ traceId: '1'.repeat(32), spanId: '0000000000000007', name: 'span 7', kind: 2, startTimeUnixNano: '1764180000123456000', endTimeUnixNano: '1764180000124956000' });
    expect(sent!['attributes']).to.deep.equal([{ key: 'n', value: { intValue: 7 } }]);
  });

  it('does not send a span whose trace is not sampled', async () => {
    start({});
    processor.onEnd(span(1, TraceFlags.NONE));
    await processor.forceFlush();
    expect(receiver.received).to.have.length(0);
  });

  it('drops spans past the queue\'s size while an export is under way, warning once, and says when it caught up', async () => {
    start({ maxQueueSize: 4, maxExportBatchSize: 2 });
    receiver.answers.push({ status: 503, headers: { 'retry-after': '1' } });
    for (let n = 1; n <= 6; n++) processor.onEnd(span(n));
    expect(log.lines).to.deep.equal(['warn trace export is behind: spans are dropped until the queue has room']);
    await processor.forceFlush();
    // The refused batch sent again, then the one that waited; spans 5 and 6 were dropped.
    expect(receiver.received.map((_, i) => names(i))).to.deep.equal([['span 1', 'span 2'], ['span 1', 'span 2'], ['span 3', 'span 4']]);
    expect(log.lines[1]).to.equal('info trace export caught up');
  });

  it('sends what it holds when it shuts down, and takes no span after that', async () => {
    start({});
    processor.onEnd(span(1));
    await processor.shutdown();
    processor.onEnd(span(2));
    expect(receiver.received).to.have.length(1);
    expect(names(0)).to.deep.equal(['span 1']);
  });
});

describe('tracing: a finished span\'s times', () => {
  it('are its epoch milliseconds to the microsecond, a rounding up to the next second carried', () => {
    const at = (startMs: number, endMs: number): FinishedSpan => new FinishedSpan(SOURCE, { ...facts(1), startMs, endMs });
    const s = at(T0, T0 + 2500.25);
    expect(s.startTime).to.deep.equal([1764180000, 123456000]);
    expect(s.endTime).to.deep.equal([1764180002, 623706000]);
    expect(s.duration).to.deep.equal([2, 500250000]);
    expect(at(1764180000999.9997, 1764180000999.9997).startTime).to.deep.equal([1764180001, 0]);
    // An end before the start (clocks read apart) is the start.
    expect(at(T0, T0 - 1).duration).to.deep.equal([0, 0]);
  });
});
