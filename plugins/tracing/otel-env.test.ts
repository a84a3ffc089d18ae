// The export's time limit from the standard variables: the traces one over the general one,
// a default, and a clear error for a value that is not whole milliseconds.
import { expect } from 'chai';
import { batchLimits, exportTimeoutMs } from './otel-env.js';

describe('tracing: OTEL_EXPORTER_OTLP_(TRACES_)TIMEOUT', () => {
  it('is 10 s unless set, the traces variable winning over the general one', () => {
    expect(exportTimeoutMs({})).to.equal(10_000);
    expect(exportTimeoutMs({ OTEL_EXPORTER_OTLP_TIMEOUT: '2500' })).to.equal(2500);
    expect(exportTimeoutMs({ OTEL_EXPORTER_OTLP_TIMEOUT: '2500', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '700' })).to.equal(700);
  });

  it('stops the start on a value that is not a whole number of milliseconds above 0, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'ten']) {
      expect(() => exportTimeoutMs({ OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: bad })).to.throw(`OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: must be a whole number of milliseconds above 0, got '${bad}'`);
    }
  });
});

describe('tracing: OTEL_BSP_* limits of the batch processor', () => {
  it('are the specification\'s defaults unless set, a batch never larger than the queue', () => {
    expect(batchLimits({})).to.deep.equal({ scheduledDelayMs: 5000, maxQueueSize: 2048, maxExportBatchSize: 512 });
    expect(batchLimits({ OTEL_BSP_SCHEDULE_DELAY: '200', OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512' })).to.deep.equal({ scheduledDelayMs: 200, maxQueueSize: 100, maxExportBatchSize: 100 });
  });

  it('stops the start on a value that is not a whole number above 0, naming the variable', () => {
    expect(() => batchLimits({ OTEL_BSP_MAX_QUEUE_SIZE: '0' })).to.throw("OTEL_BSP_MAX_QUEUE_SIZE: must be a whole number above 0, got '0'");
  });
});
