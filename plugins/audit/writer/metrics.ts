// What the audit writers of this process count, as plain numbers: a gateway without the metrics
// plugin never loads prom-client for them. prometheus.ts serves them as series when it is on.
// Process-wide: a second gateway in the same process (tests) adds to the same counts.

/** Anything with a queue the gauge should report. */
export interface QueueSource {
  readonly queueLength: number;
}

const sources = new Set<QueueSource>();

/** Running totals since the process started. */
export const writerCounts = { spilled: 0, failedWrites: 0 };

export function trackQueue(source: QueueSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/** Entries in memory waiting for the store, over every writer. */
export function queueLength(): number {
  let n = 0;
  for (const s of sources) n += s.queueLength;
  return n;
}
