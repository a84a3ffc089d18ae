// A circuit breaker per target model id: after `failure_threshold` consecutive failed calls the
// target is out for `cooldown_ms`; then one call probes it (others still skip it) and its
// outcome closes the breaker or opens it for another cooldown. Kept per process.
import type { TargetBreaker } from './breaker-service.js';
import type { FailoverOptions } from './schema.js';

interface TargetHealth {
  /** The provider instance the target belongs to (the gauge of open breakers counts by it). */
  provider: string;
  failures: number;
  /** While now < openUntil the target is skipped. */
  openUntil: number;
  probing: boolean;
}

/**
 * Targets with a failure on record. Model ids come from clients, so a provider that is down could
 * be sent any number of them: past this many the oldest record is forgotten (that target is
 * simply admitted again).
 */
export const MAX_TRACKED_TARGETS = 10_000;

export class CircuitBreaker {
  readonly #options: FailoverOptions['breaker'];
  readonly #health = new Map<string, TargetHealth>();
  readonly #now: () => number;

  constructor(options: FailoverOptions['breaker'], now: () => number = Date.now) {
    this.#options = options;
    this.#now = now;
  }

  /** Whether a call may go to the target now; claims the probe when the cooldown is over. */
  admit(id: string): boolean {
    const h = this.#health.get(id);
    if (h === undefined || h.openUntil === 0) return true;
    if (this.#now() < h.openUntil || h.probing) return false;
    h.probing = true;
    return true;
  }

  succeeded(id: string): void {
    this.#health.delete(id);
  }

  failed(id: string, provider: string): void {
    let h = this.#health.get(id);
    if (h === undefined) {
      if (this.#health.size >= MAX_TRACKED_TARGETS) this.#health.delete(this.#health.keys().next().value!);
      h = { provider, failures: 0, openUntil: 0, probing: false };
    }
    h.failures += 1;
    if (h.probing || h.failures >= this.#options.failure_threshold) h.openUntil = this.#now() + this.#options.cooldown_ms;
    h.probing = false;
    this.#health.set(id, h);
  }

  /** The call ended without a verdict on the target (its client left): another may probe it. */
  released(id: string): void {
    const h = this.#health.get(id);
    if (h !== undefined) h.probing = false;
  }

  /**
   * Open breakers by provider: targets taken out and not closed since by a success, whether in
   * their cooldown or waiting for a probe.
   */
  openByProvider(): Map<string, number> {
    const open = new Map<string, number>();
    for (const h of this.#health.values()) if (h.openUntil !== 0) open.set(h.provider, (open.get(h.provider) ?? 0) + 1);
    return open;
  }

  /**
   * The targets with a failure counted since their last success, by id: `open` until the
   * cooldown ends, then `half-open` (the next call probes it, or a probe is under way);
   * `closed` while the failures are below the threshold. Every other target is closed.
   */
  states(): TargetBreaker[] {
    const now = this.#now();
    return [...this.#health]
      .map(([target, h]) => ({ target, provider: h.provider, failures: h.failures, ...(h.openUntil === 0 ? { state: 'closed' as const, until: null } : now < h.openUntil ? { state: 'open' as const, until: h.openUntil } : { state: 'half-open' as const, until: null }) }))
      .sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  }

  /** ms until the first of these targets may be probed (for a retry-after when all are out). */
  waitMs(ids: readonly string[]): number {
    let soonest = Infinity;
    for (const id of ids) soonest = Math.min(soonest, Math.max(0, (this.#health.get(id)?.openUntil ?? 0) - this.#now()));
    return soonest === Infinity ? 0 : soonest;
  }
}
