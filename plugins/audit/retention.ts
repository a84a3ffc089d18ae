// Retention: raw entries older than retention_days are purged at start and every hour. Rollups
// are kept: they are small, and usage over old periods stays answerable.
import type { Logger } from '../../core/logger.js';
import { Periodic } from './periodic.js';
import type { AuditStore } from './store/store.js';

const DAY_MS = 86_400_000;
const PURGE_EVERY_MS = 3_600_000;

export class Retention {
  readonly #store: AuditStore;
  readonly #days: number;
  readonly #logger: Pick<Logger, 'info' | 'error'>;
  readonly #periodic = new Periodic((now) => this.#purge(now), PURGE_EVERY_MS);

  constructor(store: AuditStore, days: number, logger: Pick<Logger, 'info' | 'error'>) {
    this.#store = store;
    this.#days = days;
    this.#logger = logger;
  }

  /** Purges now, then hourly. Does nothing when retention is 0 (keep forever). */
  start(): void {
    if (this.#days === 0) return;
    this.#periodic.start();
  }

  /** One purge run (a second call while one runs joins it). Never rejects. */
  purge(now: number = Date.now()): Promise<void> {
    return this.#periodic.run(now);
  }

  /** Stops the timer and waits for a running purge, so the store can be closed after. */
  stop(): Promise<void> {
    return this.#periodic.stop();
  }

  async #purge(now: number): Promise<void> {
    try {
      const n = await this.#store.purgeBefore(now - this.#days * DAY_MS);
      if (n > 0) this.#logger.info(`audit: purged ${n} entries older than ${this.#days} days`);
    } catch (err) {
      this.#logger.error(`audit: purging old entries failed: ${(err as Error).message}`);
    }
  }
}
