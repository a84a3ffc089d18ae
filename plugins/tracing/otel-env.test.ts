// The export's time limit from the standard variables: the traces one over the general one,
// a default, and a clear error for a value that is not whole milliseconds.
import { expect } from 'chai';
import { exportTimeoutMs } from './otel-env.js';

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
