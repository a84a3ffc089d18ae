import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { memoryLogger } from '../test/helpers/memory-logger.js';
import { ConnectionQueue } from './connection-queue.js';
import type { WaitingCall } from './connection-queue.js';
import type { GatewayError } from './errors.js';

/** A call that notes what the queue told it. */
class Call implements WaitingCall {
  readonly provider = 'openai';
  started: number | null = null;
  failed: GatewayError | null = null;
  waited: number | null = null;

  start(waitedMs: number): void {
    this.started = waitedMs;
    this.waited = waitedMs;
  }

  fail(err: GatewayError, waitedMs: number): void {
    this.failed = err;
    this.waited = waitedMs;
  }
}

const ORIGIN = 'http://127.0.0.1:9';
const EPISODE_LINE = `warn upstream ${ORIGIN} (provider 'openai'): all 2 connections are busy; calls wait up to 60 ms for one, then get 503 (upstream.connections_per_origin, upstream.queue_timeout_ms)`;

describe('ConnectionQueue', () => {
  it('starts calls at once up to the cap, then hands each released connection to the oldest waiting call', () => {
    const queue = new ConnectionQueue(ORIGIN, 2, 10_000, memoryLogger().logger);
    const calls = [new Call(), new Call(), new Call(), new Call()];
    for (const c of calls) queue.admit(c);
    expect(calls.map((c) => c.started)).to.deep.equal([0, 0, null, null]);
    expect(queue.stats()).to.deep.equal({ origin: ORIGIN, cap: 2, active: 2, waiting: 2, waitedTotal: 2, refusedTotal: 0 });
    queue.release();
    expect(calls[2]!.started).to.be.a('number').and.at.least(0);
    expect(calls[3]!.started).to.equal(null);
    queue.release();
    queue.release();
    queue.release();
    expect(queue.stats()).to.include({ active: 0, waiting: 0, waitedTotal: 2 });
  });

  it('refuses a call that waited the queue time with a 503 naming the provider, and counts it', async () => {
    const queue = new ConnectionQueue(ORIGIN, 2, 60, memoryLogger().logger);
    queue.admit(new Call());
    queue.admit(new Call());
    const late = new Call();
    queue.admit(late);
    await sleep(150);
    expect(late.started).to.equal(null);
    expect(late.waited).to.be.at.least(59);
    expect(late.failed?.status).to.equal(503);
    expect(late.failed?.retryAfter).to.equal(1);
    expect(late.failed?.toEnvelope()).to.deep.equal({
      error: { message: "all 2 connections to provider 'openai' stayed busy for 60 ms; try again later", type: 'provider_error', code: 'upstream_queue_timeout', param: null, provider: 'openai' },
    });
    expect(queue.stats()).to.include({ active: 2, waiting: 0, refusedTotal: 1 });
  });

  it('a call that leaves the queue (its client went away) is neither started nor refused', async () => {
    const queue = new ConnectionQueue(ORIGIN, 1, 60, memoryLogger().logger);
    queue.admit(new Call());
    const gone = new Call();
    const leave = queue.admit(gone);
    const next = new Call();
    queue.admit(next);
    leave!();
    expect(queue.stats()).to.include({ waiting: 1 });
    queue.release();
    expect(next.started).to.be.a('number');
    await sleep(100);
    expect(gone.started).to.equal(null);
    expect(gone.failed).to.equal(null);
    expect(queue.stats()).to.include({ refusedTotal: 0 });
  });

  it('logs one warning per episode of waits, not one per call', async () => {
    const { logger, lines } = memoryLogger();
    const queue = new ConnectionQueue(ORIGIN, 2, 60, logger);
    queue.admit(new Call());
    queue.admit(new Call());
    queue.admit(new Call());
    queue.admit(new Call());
    // The queue empties and fills again within the episode gap: the same episode.
    queue.release();
    queue.release();
    queue.admit(new Call());
    await sleep(100);
    expect(lines).to.deep.equal([EPISODE_LINE]);
  });
});
