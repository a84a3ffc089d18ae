// What the writer's worker and the request loop tell each other besides calls and answers.

/** From the worker: its queue (after each change), counts to add to the metrics, or a log line. */
export type WriterEvent = { queued: number; spilled: number; failedWrites: number; log?: undefined } | { log: 'info' | 'warn' | 'error'; message: string };

/** Answer to `pending(id)`: an entry answered but not stored yet. */
export interface PendingAnswer {
  entry: import('../audit-entry.js').AuditEntry | null;
  /** The last write failed. */
  failing: boolean;
  /** Every entry not stored yet is in memory (none waits in a journal only). */
  complete: boolean;
}
