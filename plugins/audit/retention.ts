// Retention: raw entries older than retention_days are purged at start and every hour (an
// unref'd timer, one purge at a time). Rollups are kept: they are small, and usage over old
// periods stays answerable.
import type { Logger } from '../../core/logger.js';
import type { AuditStore } from './store/store.js';

type Purger = Pick<AuditStore, 'purgeBefore'>;

const DAY_MS = 86_400_000;
const PURGE_EVERY_MS = 3_600_000;

export class Retention {
  readonly #store: Purger;
  readonly #days: number;
  readonly #logger: Pick<Logger, 'info' | 'error'>;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;

  constructor(store: Purger, days: number, logger: Pick<Logger, 'info' | 'error'>) {
    this.#store = store;
    this.#days = days;
    this.#logger = logger;
  }

  /** Purges now, then hourly. Does nothing when retention is 0 (keep forever). */
  start(): void {
    if (this.#days === 0) return;
    void this.purge();
    this.#timer = setInterval(() => void this.purge(), PURGE_EVERY_MS).unref();
  }

  /** One purge run (a second call while one runs joins it). Never rejects. */
  purge(now: number = Date.now()): Promise<void> {
    this.#running ??= this.#purge(now).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #purge(now: number): Promise<void> {
    try {
      const n = await this.#store.purgeBefore(now - this.#days * DAY_MS);
      if (n > 0) this.#logger.info(`audit: purged ${n} entries older than ${this.#days} days`);
    } catch (err) {
      this.#logger.error(`audit: purging old entries failed: ${(err as Error).message}`);
    }
  }

  /** Stops the timer and waits for a running purge, so the store can be closed after. */
  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
