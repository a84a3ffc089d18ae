// `sluice_breakers_open`: per provider instance, the targets whose circuit breaker is open now.
// On prom-client's default registry, which the metrics plugin serves after the gateway's own
// series (as the audit plugin's queue gauge). Read from the breakers when scraped, never on the
// request path. Created once per process; each gateway's breakers are counted while it runs
// (tests start several gateways in one process).
import { Gauge, register } from 'prom-client';

const NAME = 'sluice_breakers_open';

/** One gateway's breakers, and the providers it serves (each has a series, 0 when none is open). */
export interface BreakerSource {
  providers: readonly string[];
  openByProvider(): ReadonlyMap<string, number>;
}

const sources = new Set<BreakerSource>();

if (register.getSingleMetric(NAME) === undefined) {
  new Gauge({
    name: NAME,
    help: 'Circuit breakers open now (targets out after repeated failures, until a call succeeds), by provider instance.',
    labelNames: ['provider'],
    collect() {
      const open = new Map<string, number>();
      for (const source of sources) {
        for (const provider of source.providers) open.set(provider, open.get(provider) ?? 0);
        for (const [provider, count] of source.openByProvider()) open.set(provider, (open.get(provider) ?? 0) + count);
      }
      this.reset();
      for (const [provider, count] of open) this.set({ provider }, count);
    },
  });
}

/** Counts `source` in the gauge until the returned function is called. */
export function trackBreakers(source: BreakerSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}
