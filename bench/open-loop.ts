// Open-loop load generator: sends requests at a fixed rate on a fixed schedule, whatever the
// targets' response times, and records each request's latency. wrk is closed-loop (a new
// request only when one completes), which hides latency behind queueing and cannot hold a
// fixed, unsaturated rate; this is what measures the latency a gateway adds in normal use.
//
// Targets take turns in short slices (mock, bare, sluice, mock, bare, ...) rather than one
// long run each, so that a burst of background load on a shared machine lands on all of them
// alike and cancels out of the differences between them.
//
// Latency runs from the moment the request is handed to the pool until the last body byte
// arrives (for streams: after `data: [DONE]`), so it does not include how late the generator
// sent. Sends are driven by timers, which fire up to about a millisecond late: spinning on
// setImmediate would be punctual but allocates an Immediate per turn, and the resulting
// young-generation GC pauses (1-3 ms on a small VM) land on the responses being timed, which
// is worse. How late sends left is reported as sendLag; requests that fall behind are sent
// as soon as possible, never skipped, so the average rate is exact.
//
// Usage: node --import tsx bench/open-loop.ts '<OpenLoopConfig as JSON>'
// Prints one line of JSON (OpenLoopResults) on stdout.
import { Pool } from 'undici';
import { exitWhenOrphaned } from './orphan-guard.js';
import type { OpenLoopConfig, OpenLoopResult, OpenLoopResults, OpenLoopTarget } from './open-loop-runner.js';

const NS_PER_MS = 1e6;
const DONE_MARKER = 'data: [DONE]';

interface TargetState {
  name: string;
  pool: Pool;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  latencies: Float64Array;
  lags: Float64Array;
  recorded: number;
  sent: number;
  errors: number;
  firstError: string | null;
}

interface Phase {
  target: TargetState;
  endNs: number;
  record: boolean;
}

function parseConfig(raw: string | undefined): OpenLoopConfig {
  if (raw === undefined) throw new Error('usage: open-loop.ts <config JSON>');
  const config = JSON.parse(raw) as OpenLoopConfig;
  if (!(config.rate > 0) || !(config.durationSeconds > 0) || !(config.sliceSeconds > 0)) {
    throw new Error('rate, durationSeconds and sliceSeconds must be positive');
  }
  if (config.targets.length === 0) throw new Error('no targets');
  return config;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

const config = parseConfig(process.argv[2]);

function targetState(target: OpenLoopTarget): TargetState {
  const url = new URL(target.url);
  // Slack for rounding at slice edges.
  const capacity = Math.ceil(config.durationSeconds * config.rate) + config.targets.length * 4;
  return {
    name: target.name,
    // Far more connections than the few requests in flight at a few hundred per second, so no
    // request ever waits for a free connection.
    pool: new Pool(url.origin, { connections: 64, pipelining: 1, keepAliveTimeout: 120_000 }),
    path: url.pathname + url.search,
    headers: { 'content-type': 'application/json', ...target.headers },
    body: Buffer.from(target.body),
    latencies: new Float64Array(capacity),
    lags: new Float64Array(capacity),
    recorded: 0,
    sent: 0,
    errors: 0,
    firstError: null,
  };
}

const states = config.targets.map(targetState);

/** Warmup slices first (one per target), then rounds of measured slices until each target has its duration. */
function buildPhases(): Phase[] {
  const phases: Phase[] = [];
  let endNs = 0;
  for (const target of states) {
    endNs += config.warmupSeconds * 1e9;
    phases.push({ target, endNs, record: false });
  }
  for (let done = 0; done < config.durationSeconds; done += config.sliceSeconds) {
    const slice = Math.min(config.sliceSeconds, config.durationSeconds - done);
    for (const target of states) {
      endNs += slice * 1e9;
      phases.push({ target, endNs, record: true });
    }
  }
  return phases.filter((phase, index) => index === 0 || phase.endNs > (phases[index - 1]?.endNs ?? 0));
}

const phases = buildPhases();
const totalNs = phases[phases.length - 1]?.endNs ?? 0;
const intervalNs = 1e9 / config.rate;
let phaseIndex = 0;
let next = 0;
let inFlight = 0;

const origin = process.hrtime.bigint();
const nowNs = (): number => Number(process.hrtime.bigint() - origin);
// The schedule is checked far more often than latencies are stamped; performance.now() reads
// the same monotonic clock without allocating a BigInt each time.
const scheduleOrigin = performance.now();
const scheduleNowNs = (): number => (performance.now() - scheduleOrigin) * NS_PER_MS;

function failed(state: TargetState, message: string): void {
  state.errors++;
  state.firstError ??= message;
}

async function fire(phase: Phase, intendedNs: number): Promise<void> {
  const state = phase.target;
  const lagMs = (scheduleNowNs() - intendedNs) / NS_PER_MS;
  const sentNs = nowNs();
  state.sent++;
  inFlight++;
  try {
    const response = await state.pool.request({ method: 'POST', path: state.path, headers: state.headers, body: state.body });
    let tail = '';
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (config.expectSse) tail = (tail + chunk.toString('latin1')).slice(-64);
    }
    const latencyMs = (nowNs() - sentNs) / NS_PER_MS;
    if (response.statusCode !== 200) return failed(state, `HTTP ${response.statusCode}`);
    if (config.expectSse && !tail.trimEnd().endsWith(DONE_MARKER)) return failed(state, 'stream did not end with data: [DONE]');
    if (phase.record && state.recorded < state.latencies.length) {
      state.latencies[state.recorded] = latencyMs;
      state.lags[state.recorded] = lagMs;
      state.recorded++;
    }
  } catch (error) {
    failed(state, error instanceof Error ? error.message : String(error));
  } finally {
    inFlight--;
  }
}

function summarise(state: TargetState): OpenLoopResult {
  const sorted = state.latencies.slice(0, state.recorded).sort();
  const sortedLags = state.lags.slice(0, state.recorded).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const n = state.recorded;
  return {
    sent: state.sent,
    recorded: n,
    errors: state.errors,
    firstError: state.firstError,
    p50Ms: percentile(sorted, 0.5),
    p90Ms: percentile(sorted, 0.9),
    p99Ms: percentile(sorted, 0.99),
    maxMs: n > 0 ? (sorted[n - 1] ?? Number.NaN) : Number.NaN,
    meanMs: n > 0 ? sum / n : Number.NaN,
    sendLagP99Ms: percentile(sortedLags, 0.99),
    sendLagMaxMs: n > 0 ? (sortedLags[n - 1] ?? Number.NaN) : Number.NaN,
  };
}

async function finish(): Promise<void> {
  const deadline = Date.now() + config.drainTimeoutMs;
  while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  if (inFlight > 0) {
    for (const state of states) failed(state, `${inFlight} requests still in flight after the ${config.drainTimeoutMs} ms drain timeout`);
  }
  const results: OpenLoopResults = {};
  for (const state of states) results[state.name] = summarise(state);
  process.stdout.write(`${JSON.stringify(results)}\n`);
  await Promise.all(states.map((state) => state.pool.destroy()));
  process.exit(0);
}

function pump(): void {
  const now = scheduleNowNs();
  // Fire everything that is due, including any backlog: an open loop never skips a send.
  while (next * intervalNs < totalNs && next * intervalNs <= now) {
    const intendedNs = next * intervalNs;
    while ((phases[phaseIndex]?.endNs ?? Infinity) <= intendedNs) phaseIndex++;
    const phase = phases[phaseIndex];
    if (phase === undefined) break;
    void fire(phase, intendedNs);
    next++;
  }
  if (next * intervalNs >= totalNs) {
    void finish();
    return;
  }
  setTimeout(pump, (next * intervalNs - scheduleNowNs()) / NS_PER_MS);
}

exitWhenOrphaned();
pump();
