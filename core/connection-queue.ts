// The wait for a connection when an operator caps the connections to a provider's origin
// (`upstream.connections_per_origin`). Without a cap there is no queue: undici opens a
// connection per concurrent call. With one, a call beyond the cap waits here, first come first
// served, for at most `upstream.queue_timeout_ms`; past that it fails with a 503 naming the
// provider, so a saturated pool is an answer the client sees rather than latency it cannot
// explain. The operator's log says so once per episode (a run of waits with no quiet gap).
import { providerBusy } from './errors.js';
import type { GatewayError } from './errors.js';
import type { Logger } from './logger.js';

/** A call that waits for a connection; the queue calls exactly one of these, once. */
export interface WaitingCall {
  /** The provider it is for, as the error names it. */
  readonly provider: string;
  /** A connection is free: send now. `waitedMs` is the time spent in the queue. */
  start(waitedMs: number): void;
  /** The queue time passed without a free connection. */
  fail(err: GatewayError, waitedMs: number): void;
}

interface Waiter {
  call: WaitingCall;
  since: number;
}

/** Waits that come closer together than this belong to one episode, logged once. */
export const EPISODE_GAP_MS = 30_000;

/** What a metrics plugin reads about one origin's queue. */
export interface QueueStats {
  origin: string;
  cap: number;
  /** Calls holding a connection now. */
  active: number;
  /** Calls waiting now. */
  waiting: number;
  /** Calls that had to wait, since start. */
  waitedTotal: number;
  /** Calls that waited longer than the queue time and were refused, since start. */
  refusedTotal: number;
}

export class ConnectionQueue {
  readonly origin: string;
  readonly #cap: number;
  readonly #timeoutMs: number;
  readonly #logger: Logger;
  /** FIFO: all wait the same time at most, so the head always expires first. */
  readonly #waiters: Waiter[] = [];
  #active = 0;
  #waitedTotal = 0;
  #refusedTotal = 0;
  #timer: NodeJS.Timeout | null = null;
  /** When the queue last emptied (-Infinity: never used), to tell a new episode from a running one. */
  #quietSince = -Infinity;

  constructor(origin: string, cap: number, timeoutMs: number, logger: Logger) {
    this.origin = origin;
    this.#cap = cap;
    this.#timeoutMs = timeoutMs;
    this.#logger = logger;
  }

  /**
   * Starts the call at once when a connection is free (returns null), otherwise queues it and
   * returns a handle to cancel the wait. Every started call must be `release()`d once.
   */
  admit(call: WaitingCall): (() => void) | null {
    if (this.#active < this.#cap && this.#waiters.length === 0) {
      this.#active++;
      call.start(0);
      return null;
    }
    const now = performance.now();
    if (this.#waiters.length === 0 && now - this.#quietSince > EPISODE_GAP_MS) this.#logEpisode(call.provider);
    const waiter: Waiter = { call, since: now };
    this.#waiters.push(waiter);
    this.#waitedTotal++;
    this.#arm();
    return () => this.#leave(waiter);
  }

  /** A started call is over (its response ended or failed): the next waiting one takes its connection. */
  release(): void {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) {
      this.#active--;
      return;
    }
    if (this.#waiters.length === 0) this.#quiet();
    waiter.call.start(performance.now() - waiter.since);
  }

  stats(): QueueStats {
    return { origin: this.origin, cap: this.#cap, active: this.#active, waiting: this.#waiters.length, waitedTotal: this.#waitedTotal, refusedTotal: this.#refusedTotal };
  }

  /** A waiting call's client went away: it leaves the queue (rare, so a splice). */
  #leave(waiter: Waiter): void {
    const i = this.#waiters.indexOf(waiter);
    if (i === -1) return;
    this.#waiters.splice(i, 1);
    if (this.#waiters.length === 0) this.#quiet();
  }

  #quiet(): void {
    this.#quietSince = performance.now();
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** One timer for the whole queue, set for its head's deadline. */
  #arm(): void {
    if (this.#timer !== null) return;
    const head = this.#waiters[0]!;
    this.#timer = setTimeout(this.#expire, Math.max(0, head.since + this.#timeoutMs - performance.now()));
  }

  readonly #expire = (): void => {
    this.#timer = null;
    const now = performance.now();
    while (this.#waiters.length > 0 && now - this.#waiters[0]!.since >= this.#timeoutMs) {
      const waiter = this.#waiters.shift()!;
      this.#refusedTotal++;
      waiter.call.fail(providerBusy(waiter.call.provider, this.#cap, this.#timeoutMs), now - waiter.since);
    }
    if (this.#waiters.length === 0) this.#quiet();
    else this.#arm();
  };

  #logEpisode(provider: string): void {
    this.#logger.warn(
      `upstream ${this.origin} (provider '${provider}'): all ${this.#cap} connections are busy; calls wait up to ${this.#timeoutMs} ms for one, then get 503 (upstream.connections_per_origin, upstream.queue_timeout_ms)`,
    );
  }
}
