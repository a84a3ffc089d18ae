// The request loop's side of the audit writer. push() is all a request pays: an array push and,
// once per event-loop turn, an immediate that turns the turn's captures into entries (redaction,
// bodies as text, one JSON.stringify each) and hands them to the writer's worker in one message.
// The worker journals and stores them (journal-worker.ts).
import type { Logger } from '../../../core/logger.js';
import type { AuditEntry } from '../audit-entry.js';
import type { StoreSpec } from '../store/store.js';
import { WorkerRpc } from '../worker-rpc.js';
import type { JournalWorkerData } from './journal-worker.js';
import { trackQueue, writerCounts } from './metrics.js';
import type { PendingAnswer, WriterEvent } from './writer-messages.js';

export interface WriterOptions<C> {
  spec: StoreSpec;
  /** Where the journal lives (the data directory). */
  dir: string;
  /** Turns a capture into its entry, off the request path. */
  materialize: (captured: C) => AuditEntry;
  batchSize: number;
  flushIntervalMs: number;
  maxQueue: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Wait after a failed write before the next try. */
  retryMs?: number;
}

export class AuditWriter<C> {
  readonly #data: JournalWorkerData;
  #rpc: WorkerRpc;
  /** A replacement worker opening: captures wait until it can take them. */
  #opening: Promise<void> | null = null;
  readonly #materialize: (captured: C) => AuditEntry;
  readonly #logger: WriterOptions<C>['logger'];
  readonly #untrack: () => void;
  readonly #send = (): void => {
    this.#scheduled = false;
    this.#handOver();
  };
  #captured: C[] = [];
  #scheduled = false;
  #queued = 0;
  #closed = false;

  private constructor(options: WriterOptions<C>) {
    this.#materialize = options.materialize;
    this.#logger = options.logger;
    this.#data = {
      spec: options.spec,
      dir: options.dir,
      batchSize: options.batchSize,
      flushIntervalMs: options.flushIntervalMs,
      maxQueue: options.maxQueue,
      retryMs: options.retryMs ?? 1000,
    };
    this.#rpc = this.#spawn();
    this.#untrack = trackQueue(this);
  }

  #spawn(): WorkerRpc {
    const rpc = new WorkerRpc(import.meta.url, './journal-worker', this.#data, (m) => this.#onEvent(m as WriterEvent));
    rpc.worker.once('exit', (code) => {
      // One that never opened is not replaced: its successor would fail the same way.
      if (this.#closed || !rpc.opened) return;
      // A bug in the worker, not the store: what it journaled comes back with the next one.
      this.#logger.error(`audit: the writer's worker stopped (code ${code}); starting another, which replays the journal`);
      this.#rpc = this.#spawn();
      const next = this.#rpc;
      this.#opening = next.call('open').then(
        () => {
          next.opened = true;
          this.#opening = null;
          this.#handOver();
        },
        (err: Error) => {
          this.#opening = null;
          this.#logger.error(`audit: the writer's worker cannot start again, entries are not recorded: ${err.message}`);
        },
      );
    });
    return rpc;
  }

  /** Starts the worker, which opens the store (migrations included) and replays what a previous run left. */
  static async start<C>(options: WriterOptions<C>): Promise<AuditWriter<C>> {
    const writer = new AuditWriter(options);
    try {
      await writer.#rpc.call('open');
      writer.#rpc.opened = true;
    } catch (err) {
      writer.#untrack();
      await writer.#rpc.worker.terminate();
      throw err;
    }
    return writer;
  }

  /** Entries in memory, not yet in the store. */
  get queueLength(): number {
    return this.#captured.length + this.#queued;
  }

  /** The request path's only call: O(1), no I/O, no serialisation. */
  push(captured: C): void {
    if (this.#closed) {
      this.#logger.error('audit: an entry arrived after the writer closed; it is not recorded');
      return;
    }
    this.#captured.push(captured);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#send);
    }
  }

  /** Stores everything handed over so far; resolves whether it all is (false while the store fails). */
  async flush(): Promise<boolean> {
    await this.#opening;
    this.#handOver();
    return this.#rpc.call<boolean>('flush').catch(() => false);
  }

  /** An entry answered but not stored yet, and whether any could be elsewhere than memory. */
  async pending(id: string): Promise<PendingAnswer> {
    await this.#opening;
    this.#handOver();
    return this.#rpc.call<PendingAnswer>('pending', id);
  }

  /** Deletes entries started before `ts` (retention), on the writer's connection. */
  async purgeBefore(ts: number): Promise<number> {
    await this.#opening;
    return this.#rpc.call<number>('purgeBefore', ts);
  }

  /** Stores what it can before resolving; the rest waits in the journal for the next start. */
  async close(): Promise<void> {
    await this.#opening;
    this.#handOver();
    this.#closed = true;
    try {
      const lost = (await this.#rpc.close()) as number;
      if (lost > 0) this.#logger.error(`audit: ${lost} entries could neither be stored nor journaled; they are lost with this process`);
    } catch (err) {
      this.#logger.error(`audit: closing the writer failed: ${(err as Error).message}`);
    }
    this.#untrack();
  }

  #handOver(): void {
    if (this.#captured.length === 0 || this.#opening !== null) return;
    const captured = this.#captured;
    this.#captured = [];
    const entries: string[] = [];
    for (const c of captured) {
      try {
        entries.push(JSON.stringify(this.#materialize(c)));
      } catch (err) {
        // A bug, not a storage problem: retrying cannot help, so say which entry it cost.
        this.#logger.error(`audit: cannot serialise an entry: ${(err as Error).message}`);
      }
    }
    this.#queued += entries.length;
    this.#rpc.send({ entries });
  }

  #onEvent(event: WriterEvent): void {
    if (event.log !== undefined) {
      this.#logger[event.log](event.message);
      return;
    }
    this.#queued = event.queued;
    writerCounts.spilled += event.spilled;
    writerCounts.failedWrites += event.failedWrites;
  }
}
