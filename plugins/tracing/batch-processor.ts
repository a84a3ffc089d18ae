// The batch span processor: each sampled span is written into the current batch's OTLP body as it
// ends (otlp-json.ts), and a batch goes to the exporter when it is full or has waited long enough,
// one export at a time, so no request waits on one. The SDK's BatchSpanProcessor keeps the span
// objects until their export instead: most of what an exported trace cost a request was the
// scavenges copying them (bench/README.md, "Observability"). The limits are the OTEL_BSP_* ones.
import { TraceFlags } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { Logger } from '../../core/logger.js';
import type { BatchLimits } from './otel-env.js';
import type { OtlpJsonExporter } from './otlp-exporter.js';
import { SpanBatch } from './otlp-json.js';

interface Body {
  bytes: Buffer;
  spans: number;
}

export class OtlpBatchProcessor implements SpanProcessor {
  readonly #exporter: OtlpJsonExporter;
  readonly #limits: BatchLimits;
  readonly #logger: Logger;
  #batch = new SpanBatch();
  /** Bodies waiting for the export under way. */
  readonly #waiting: Body[] = [];
  /** Spans in the batch, waiting and being sent: at most the queue's size. */
  #queued = 0;
  #sending: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** Spans dropped since the queue was last full: the log says so once per streak. */
  #dropped = 0;
  #closed = false;
  readonly #cut = (): void => {
    this.#timer = null;
    if (this.#batch.count === 0) return;
    this.#waiting.push({ bytes: this.#batch.body(), spans: this.#batch.count });
    this.#batch = new SpanBatch();
    this.#next();
  };

  constructor(exporter: OtlpJsonExporter, limits: BatchLimits, logger: Logger) {
    this.#exporter = exporter;
    this.#limits = limits;
    this.#logger = logger;
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.#closed || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.#queued >= this.#limits.maxQueueSize) {
      if (this.#dropped++ === 0) this.#logger.warn('trace export is behind: spans are dropped until the queue has room', { max_queue_size: this.#limits.maxQueueSize });
      return;
    }
    this.#queued++;
    this.#batch.add(span);
    if (this.#batch.count >= this.#limits.maxExportBatchSize) {
      if (this.#timer !== null) clearTimeout(this.#timer);
      this.#cut();
    } else if (this.#timer === null) {
      this.#timer = setTimeout(this.#cut, this.#limits.scheduledDelayMs);
      // A batch waiting for its time does not keep the process alive: close() flushes it.
      this.#timer.unref();
    }
  }

  /** Sends the batch now and resolves once every export settled. */
  async forceFlush(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#cut();
    while (this.#sending !== null) await this.#sending;
  }

  async shutdown(): Promise<void> {
    if (this.#closed) return;
    await this.forceFlush();
    this.#closed = true;
    await this.#exporter.shutdown();
  }

  #next(): void {
    if (this.#sending !== null) return;
    const body = this.#waiting.shift();
    if (body === undefined) return;
    this.#sending = this.#exporter.export(body.bytes).then(
      () => {
        if (this.#dropped > 0) this.#logger.info('trace export caught up', { dropped_spans: this.#dropped });
        this.#dropped = 0;
      },
      // The exporter has logged it: the batch is gone.
      () => undefined,
    ).finally(() => {
      this.#queued -= body.spans;
      this.#sending = null;
      this.#next();
    });
  }
}
