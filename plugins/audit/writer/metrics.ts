// The audit writer's Prometheus metrics, on prom-client's default registry (what the planned
// metrics plugin is to serve). Created once per process: a second gateway in the same process
// (tests) shares them instead of failing on a duplicate name.
import { Counter, Gauge, register } from 'prom-client';

/** Anything with a queue the gauge should report. */
export interface QueueSource {
  readonly queueLength: number;
}

const sources = new Set<QueueSource>();

function counter(name: string, help: string): Counter {
  return (register.getSingleMetric(name) as Counter | undefined) ?? new Counter({ name, help });
}

export const spilledTotal = counter('sluice_audit_spilled_total', 'Audit entries kept on disk only (in the journal) because the in-memory queue was full, to be stored later.');
export const failedWritesTotal = counter('sluice_audit_failed_writes_total', 'Writes (transactions) of audit entries the store refused; the entries are kept and retried.');

// Read at scrape time rather than set per request: the request path stays free of it.
if (register.getSingleMetric('sluice_audit_queue_length') === undefined) {
  new Gauge({
    name: 'sluice_audit_queue_length',
    help: 'Audit entries in memory waiting to be written to the store.',
    collect() {
      let n = 0;
      for (const s of sources) n += s.queueLength;
      this.set(n);
    },
  });
}

export function trackQueue(source: QueueSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}
