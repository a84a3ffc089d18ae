// Batches audit entries off the request path. push() is all a request pays: an array push and,
// once per event-loop turn, an immediate. That immediate serialises the turn's few captures
// into records (the audit plugin encodes them as their segment bytes: entry-record.ts), so the
// work is spread over the turns instead of holding the loop for a whole batch at flush time,
// and the requests' object graphs are let go young instead of surviving into the old generation. Writes happen in one store transaction
// per batch, when the timer fires or a batch is full. Nothing is dropped:
//   - beyond max_queue entries in memory, new ones go to the spill file (spill.ts);
//   - a failed write keeps its entries in memory and retries (backing off), and what exceeds
//     max_queue meanwhile is spilled;
//   - spilled entries come back into the store after the next successful write, and at start;
//   - close() writes everything still queued (or spills it if the store refuses) before it returns.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../../core/logger.js';
import type { StorableEntry } from './entry-record.js';
import { spilledTotal, trackQueue } from './metrics.js';
import type { SpillFile } from './spill.js';
import type { AuditStore, InsertOptions } from './store.js';

export interface WriterOptions<C> {
  store: AuditStore;
  spill: SpillFile;
  /** Turns a capture into what the store takes (serialisation happens here, off the request path). */
  materialize: (captured: C) => StorableEntry;
  /** Told of entries once the store or the spill file has them: the writer holds them no longer. */
  release?: (entries: readonly StorableEntry[]) => void;
  batchSize: number;
  flushIntervalMs: number;
  maxQueue: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Wait after a failed write before the next try. */
  retryMs?: number;
}

const WARN_EVERY_MS = 60_000;
const MAY_BE_STORED: InsertOptions = Object.freeze({ mayBeStored: true });
const INGEST_RETRY_MS = 60_000;

export class AuditWriter<C> {
  readonly #store: AuditStore;
  readonly #spill: SpillFile;
  readonly #materialize: (captured: C) => StorableEntry;
  readonly #release: (entries: readonly StorableEntry[]) => void;
  readonly #batchSize: number;
  readonly #intervalMs: number;
  readonly #maxQueue: number;
  readonly #retryMs: number;
  readonly #logger: WriterOptions<C>['logger'];
  readonly #untrack: () => void;
  readonly #onTimer = (): void => {
    this.#timer = null;
    void this.flush();
  };
  readonly #onImmediate = (): void => {
    this.#immediate = null;
    void this.flush();
  };
  readonly #onMaterialize = (): void => {
    this.#materializeScheduled = false;
    this.#materializeCaptured();
  };
  readonly #onOverflow = (): void => {
    this.#overflowScheduled = false;
    void this.#spillEntries(this.#materializeAll(this.#overflow.splice(0)));
  };

  /** Captured by requests, not yet serialised. */
  #captured: C[] = [];
  #materializeScheduled = false;
  /** Serialised entries waiting for a write, oldest first (a failed batch goes back in front). */
  #ready: StorableEntry[] = [];
  /** Captures beyond max_queue, about to be appended to the spill file. */
  #overflow: C[] = [];
  #overflowScheduled = false;
  #timer: NodeJS.Timeout | null = null;
  #immediate: NodeJS.Immediate | null = null;
  #flushing: Promise<boolean> | null = null;
  #ingesting: Promise<void> | null = null;
  /** The last write failed: only the retry timer writes until one succeeds. */
  #failing = false;
  /**
   * Entries back in the queue after a write or a spill failed: the store may have them already
   * (a store that committed, then threw) or the spill file part of them (an append cut short by
   * a full disk, which a queued ingest then stores). A batch holding one asks the store to skip
   * what it has.
   */
  readonly #requeued = new Set<StorableEntry>();
  #closed = false;
  #spilledSinceWarning = 0;
  #lastSpillWarning = -Infinity;
  #lastWriteError = -Infinity;
  #nextIngestAt = 0;

  constructor(options: WriterOptions<C>) {
    this.#store = options.store;
    this.#spill = options.spill;
    this.#materialize = options.materialize;
    this.#release = options.release ?? (() => undefined);
    this.#batchSize = options.batchSize;
    this.#intervalMs = options.flushIntervalMs;
    this.#maxQueue = options.maxQueue;
    this.#retryMs = options.retryMs ?? 1000;
    this.#logger = options.logger;
    this.#untrack = trackQueue(this);
  }

  /** Entries in memory, not yet in the store. */
  get queueLength(): number {
    return this.#captured.length + this.#ready.length + this.#overflow.length;
  }

  /** The request path's only call: O(1), no I/O, no serialisation. */
  push(captured: C): void {
    if (this.#closed || this.#captured.length + this.#ready.length >= this.#maxQueue) {
      this.#overflow.push(captured);
      if (!this.#overflowScheduled) {
        this.#overflowScheduled = true;
        setImmediate(this.#onOverflow);
      }
      return;
    }
    this.#captured.push(captured);
    if (!this.#materializeScheduled) {
      this.#materializeScheduled = true;
      setImmediate(this.#onMaterialize);
    }
    if (this.#failing) return;
    if (this.#captured.length + this.#ready.length >= this.#batchSize) {
      this.#immediate ??= setImmediate(this.#onImmediate);
    } else if (this.#timer === null) {
      this.#timer = setTimeout(this.#onTimer, this.#intervalMs).unref();
    }
  }

  /** Re-ingests entries a previous run spilled (called once the gateway is ready). */
  start(): void {
    if (this.#spill.pending) this.#startIngest();
  }

  /**
   * Writes everything queued, batch by batch (yielding to requests in between). Resolves true
   * when the queue was emptied, false when a write failed (the entries stay queued). Never rejects.
   */
  flush(): Promise<boolean> {
    this.#flushing ??= this.#drain().finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  /** Writes everything before resolving; what the store refuses is spilled to disk. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#clearTimers();
    let written = await this.flush();
    while (written && this.#captured.length + this.#ready.length > 0) written = await this.flush();
    this.#clearTimers();
    const rest = this.#ready.splice(0).concat(this.#materializeAll(this.#captured.splice(0)), this.#materializeAll(this.#overflow.splice(0)));
    if (rest.length > 0) await this.#spillEntries(rest);
    await this.#ingesting;
    await this.#spill.idle();
    if (this.#ready.length > 0) {
      this.#logger.error(`audit: ${this.#ready.length} entries could neither be stored nor spilled to ${this.#spill.path}; they are lost with this process`);
    }
    this.#untrack();
  }

  async #drain(): Promise<boolean> {
    this.#clearTimers();
    while (this.#captured.length + this.#ready.length > 0) {
      const batch = this.#takeBatch();
      const repeat = this.#requeued.size > 0 && this.#takeRequeued(batch);
      try {
        await this.#store.insert(batch, repeat ? MAY_BE_STORED : undefined);
      } catch (err) {
        this.#writeFailed(batch, err);
        return false;
      }
      this.#release(batch);
      this.#failing = false;
      if (this.#captured.length + this.#ready.length > 0) await yieldToLoop();
    }
    if (!this.#closed && this.#spill.pending) this.#startIngest();
    return true;
  }

  #takeBatch(): StorableEntry[] {
    const batch = this.#ready.length > 0 ? this.#ready.splice(0, this.#batchSize) : [];
    const room = this.#batchSize - batch.length;
    if (room > 0 && this.#captured.length > 0) {
      for (const entry of this.#materializeAll(this.#captured.splice(0, room))) batch.push(entry);
    }
    return batch;
  }

  #materializeCaptured(): void {
    if (this.#captured.length === 0) return;
    for (const entry of this.#materializeAll(this.#captured.splice(0))) this.#ready.push(entry);
  }

  #materializeAll(captured: readonly C[]): StorableEntry[] {
    const out: StorableEntry[] = [];
    for (const c of captured) {
      try {
        out.push(this.#materialize(c));
      } catch (err) {
        // A bug, not a storage problem: retrying cannot help, so say which entry it cost.
        this.#logger.error(`audit: cannot serialise an entry: ${(err as Error).message}`);
      }
    }
    return out;
  }

  /** Whether the batch holds requeued entries; they are requeued no more once it is written or fails again. */
  #takeRequeued(batch: readonly StorableEntry[]): boolean {
    let found = false;
    for (const e of batch) if (this.#requeued.delete(e)) found = true;
    return found;
  }

  #writeFailed(batch: StorableEntry[], err: unknown): void {
    this.#failing = true;
    for (const e of batch) this.#requeued.add(e);
    this.#ready = batch.concat(this.#ready);
    const now = Date.now();
    if (now - this.#lastWriteError >= WARN_EVERY_MS) {
      this.#lastWriteError = now;
      this.#logger.error(`audit: writing to the store failed, entries kept and retried: ${(err as Error).message}`);
    }
    // Memory stays bounded while the store is down: the excess goes to the spill file.
    const excess = this.#captured.length + this.#ready.length - this.#maxQueue;
    if (excess > 0) {
      const fromCaptured = Math.min(excess, this.#captured.length);
      const spilled = this.#materializeAll(this.#captured.splice(this.#captured.length - fromCaptured, fromCaptured));
      if (excess > fromCaptured) spilled.push(...this.#ready.splice(this.#ready.length - (excess - fromCaptured)));
      void this.#spillEntries(spilled);
    }
    if (!this.#closed && this.#timer === null) this.#timer = setTimeout(this.#onTimer, this.#retryMs).unref();
  }

  async #spillEntries(entries: StorableEntry[]): Promise<void> {
    if (entries.length === 0) return;
    spilledTotal.inc(entries.length);
    this.#spilledSinceWarning += entries.length;
    const now = Date.now();
    if (now - this.#lastSpillWarning >= WARN_EVERY_MS) {
      this.#lastSpillWarning = now;
      this.#logger.warn(
        `audit: ${this.#spilledSinceWarning} entries spilled to ${this.#spill.path} (queue at max_queue ${this.#maxQueue} or store failing); they are re-ingested once the store catches up`,
      );
      this.#spilledSinceWarning = 0;
    }
    try {
      await this.#spill.append(entries);
    } catch (err) {
      // The disk refuses too: memory is the last place left.
      for (const e of entries) this.#requeued.add(e);
      this.#ready = this.#ready.concat(entries);
      this.#logger.error(`audit: cannot append to ${this.#spill.path}, ${entries.length} entries kept in memory: ${(err as Error).message}`);
      return;
    }
    // In the spill file now, whose ingest skips what the store has.
    if (this.#requeued.size > 0) for (const e of entries) this.#requeued.delete(e);
    this.#release(entries);
  }

  #startIngest(): void {
    // After a failed ingest, wait before the next try: writes succeed every 100 ms under load.
    if (this.#ingesting !== null || Date.now() < this.#nextIngestAt) return;
    // A run that stopped mid-ingest leaves a file whose first batches are stored already.
    const insert = (batch: StorableEntry[]): void | Promise<void> => this.#store.insert(batch, MAY_BE_STORED);
    this.#ingesting = this.#spill.ingest(insert, this.#batchSize).then(
      (result) => {
        if (result.ingested > 0) this.#logger.info(`audit: re-ingested ${result.ingested} spilled entries`);
        if (result.skipped > 0) this.#logger.warn(`audit: skipped ${result.skipped} unreadable lines of the spill file (a write cut short)`);
      },
      (err: unknown) => {
        this.#nextIngestAt = Date.now() + INGEST_RETRY_MS;
        this.#logger.error(`audit: re-ingesting the spill file failed, it is kept and tried again in a minute: ${(err as Error).message}`);
      },
    ).finally(() => {
      this.#ingesting = null;
    });
  }

  #clearTimers(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    if (this.#immediate !== null) clearImmediate(this.#immediate);
    this.#timer = null;
    this.#immediate = null;
  }
}
