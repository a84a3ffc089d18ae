// The upstream connection queues (upstream.connections_per_origin): per capped origin, the
// calls holding a connection, the calls waiting for one, and how many had to wait or were
// refused since start. Read from the upstream client when scraped, never on the request path.
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import type { QueueStats } from '../../core/connection-queue.js';

type Read = () => QueueStats[];

export function registerUpstreamQueueMetrics(registry: Registry, read: Read): void {
  const registers = [registry];
  const labelNames = ['origin'];
  gauge('sluice_upstream_connections_active', 'Calls holding one of a capped origin\'s connections.', (q) => q.active);
  gauge('sluice_upstream_calls_waiting', 'Calls waiting for a free connection to a capped origin.', (q) => q.waiting);
  total('sluice_upstream_queue_waited_total', 'Calls that had to wait for a free connection to a capped origin.', (q) => q.waitedTotal);
  total('sluice_upstream_queue_refused_total', 'Calls refused (503 upstream_queue_timeout) after waiting upstream.queue_timeout_ms.', (q) => q.refusedTotal);

  function gauge(name: string, help: string, value: (q: QueueStats) => number): void {
    new Gauge({ name, help, labelNames, registers, collect() {
      this.reset();
      for (const q of read()) this.set({ origin: q.origin }, value(q));
    } });
  }

  // A count the upstream client keeps: the counter is set to it at each scrape.
  function total(name: string, help: string, value: (q: QueueStats) => number): void {
    new Counter({ name, help, labelNames, registers, collect() {
      this.reset();
      for (const q of read()) this.inc({ origin: q.origin }, value(q));
    } });
  }
}
