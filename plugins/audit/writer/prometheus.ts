// The audit writer's Prometheus series, on prom-client's default registry (which the metrics
// plugin serves), read from the writers' counts at scrape time. Imported only when the metrics
// plugin is on; registered once per process (tests start several gateways in one).
import { Counter, Gauge, register } from 'prom-client';
import { queueLength, writerCounts } from './metrics.js';

/** A counter that shows a running total kept elsewhere. */
function totalOf(name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

export function registerAuditMetrics(): void {
  if (register.getSingleMetric('sluice_audit_queue_length') !== undefined) return;
  new Gauge({
    name: 'sluice_audit_queue_length',
    help: 'Audit entries in memory waiting to be written to the store.',
    collect() {
      this.set(queueLength());
    },
  });
  totalOf('sluice_audit_spilled_total', 'Audit entries kept on disk only (in the journal) because the in-memory queue was full, to be stored later.', () => writerCounts.spilled);
  totalOf('sluice_audit_failed_writes_total', 'Writes (transactions) of audit entries the store refused; the entries are kept and retried.', () => writerCounts.failedWrites);
}
