// `npm run bench`: starts the mock provider, the bare forwarder and Sluice, measures each on
// each workload (saturated throughput and CPU per request with wrk, then latency at a fixed
// unsaturated rate with the open-loop generator), prints the tables and tears everything down.
//
// Core assignment on a 2-core box: everything under test on core 0, everything generating
// load (and this harness) on core 1, so the load generator never steals cycles from the
// target it measures. The mock shares core 0 with the target in front of it; see README.md.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildSet, PINNING_AVAILABLE, pinSelf } from './children.js';
import { parseOptions, USAGE, type BenchOptions } from './cli-options.js';
import { openLoopSeconds, runOpenLoop, type OpenLoopConfig, type OpenLoopResults } from './open-loop-runner.js';
import { preflight } from './preflight.js';
import { readCoreTimes, readCpuSeconds, readPeakRssBytes } from './proc-stats.js';
import { compare, renderReport, writeJsonReport, type BenchReport, type Measurement, type TargetCoreUsage } from './report.js';
import { startBare, startMock, startSluice, TARGET_LABELS, type Target, type TargetId } from './targets.js';
import { CHAT_PATH, chatRequestBody, WORKLOADS, type Workload } from './workloads.js';
import { runWrk, wrkAvailable, writeWrkScript, type WrkOptions, type WrkResult } from './wrk.js';

const TARGET_CPU = 0;
const LOAD_CPU = 1;
/** Open-loop requests sent before recording starts: JIT and connection setup in the generator. */
const OPEN_LOOP_WARMUP_SECONDS = 1;
/** Each target's turn in the interleaved latency run: short enough that noise bursts hit every target. */
const OPEN_LOOP_SLICE_SECONDS = 1;
const OPEN_LOOP_DRAIN_TIMEOUT_MS = 5000;
/**
 * Timers make sends late by up to ~1 ms, and on a VM by ~2 ms at p99 even for an empty timer
 * loop; beyond this the generator itself was starved of CPU. Latency is timed from the actual
 * send, so lateness skews the arrival pattern rather than the figures.
 */
const SEND_LAG_WARNING_MS = 5;
/** Above this share of core 0 going elsewhere, throughput figures are visibly disturbed. */
const FOREIGN_CORE_SHARE_WARNING = 0.1;

interface RunContext {
  options: BenchOptions;
  children: ChildSet;
  workDir: string;
  /** Every process pinned to the targets' core, whether or not it is the one being measured. */
  targetCorePids: number[];
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

function emptyMeasurement(target: TargetId, workload: Workload, skipped: string | null): Measurement {
  return {
    target,
    workload: workload.id,
    skipped,
    notes: [],
    wrk: null,
    cpuSeconds: null,
    cpuMicrosPerRequest: null,
    rounds: [],
    peakRssBytes: null,
    targetCore: null,
    openLoop: null,
    addedP50Ms: null,
    addedP99Ms: null,
  };
}

interface CoreSample {
  busy: number;
  steal: number;
  ours: number;
}

function sampleTargetCore(ctx: RunContext): CoreSample {
  const core = readCoreTimes(TARGET_CPU);
  let ours = 0;
  for (const pid of ctx.targetCorePids) {
    try {
      ours += readCpuSeconds(pid);
    } catch {
      // A target that died is reported by its own measurement; here it simply used no CPU.
    }
  }
  return { busy: core.busySeconds, steal: core.stealSeconds, ours };
}

function coreUsage(before: CoreSample, after: CoreSample, seconds: number): TargetCoreUsage {
  const busy = after.busy - before.busy;
  return {
    busy: busy / seconds,
    other: Math.max(0, busy - (after.ours - before.ours)) / seconds,
    steal: (after.steal - before.steal) / seconds,
  };
}

function pct(share: number): string {
  return `${(share * 100).toFixed(0)}%`;
}

interface Prepared {
  target: Target;
  measurement: Measurement;
  wrkOptions: Omit<WrkOptions, 'seconds'>;
}

/** The preflight check of the response, the wrk script and the warmup; null when the target cannot be measured. */
async function prepare(ctx: RunContext, target: Target, workload: Workload): Promise<Prepared | Measurement> {
  const { options, children, workDir } = ctx;
  const label = `[${TARGET_LABELS[target.id]} / ${workload.id}]`;
  if (target.process.hasExited()) return emptyMeasurement(target.id, workload, `process exited (${await target.process.exited})`);
  const url = `${target.origin}${CHAT_PATH}`;
  const body = chatRequestBody(target.model, workload.stream);
  const check = await preflight(url, target.headers, body, workload.stream);
  if (!check.ok) return emptyMeasurement(target.id, workload, check.note ?? 'preflight failed');
  const measurement = emptyMeasurement(target.id, workload, null);
  if (check.note !== null) measurement.notes.push(check.note);
  const scriptPath = join(workDir, `${target.id}-${workload.id}.lua`);
  await writeWrkScript(scriptPath, { method: 'POST', headers: { 'content-type': 'application/json', ...target.headers }, body });
  const wrkOptions = { url, scriptPath, connections: options.connections, threads: 1, cpu: LOAD_CPU };
  if (options.warmupSeconds > 0) {
    progress(`${label} warmup ${options.warmupSeconds}s`);
    await runWrk(children, { ...wrkOptions, seconds: options.warmupSeconds });
  }
  return { target, measurement, wrkOptions };
}

/** One turn of saturated load with wrk: its requests and the target's CPU time are added to the measurement. */
async function measureRound(ctx: RunContext, prepared: Prepared, seconds: number): Promise<void> {
  const { target, measurement } = prepared;
  const cpuBefore = readCpuSeconds(target.process.pid);
  const coreBefore = sampleTargetCore(ctx);
  const wrk = await runWrk(ctx.children, { ...prepared.wrkOptions, seconds });
  const coreAfter = sampleTargetCore(ctx);
  const cpu = readCpuSeconds(target.process.pid) - cpuBefore;
  const core = coreUsage(coreBefore, coreAfter, wrk.seconds);
  measurement.rounds.push({ requests: wrk.requests, seconds: wrk.seconds, cpuSeconds: cpu, core });
  measurement.wrk = addWrk(measurement.wrk, wrk);
  measurement.targetCore = weightedCore(measurement.rounds);
  measurement.cpuSeconds = (measurement.cpuSeconds ?? 0) + cpu;
  measurement.cpuMicrosPerRequest = measurement.wrk.requests > 0 ? (measurement.cpuSeconds / measurement.wrk.requests) * 1e6 : null;
}

/** wrk results of several turns as one run: totals, the median p50 and the worst p99. */
function addWrk(sum: WrkResult | null, next: WrkResult): WrkResult {
  if (sum === null) return next;
  const requests = sum.requests + next.requests;
  const seconds = sum.seconds + next.seconds;
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    non2xx: sum.non2xx + next.non2xx,
    socketErrors: sum.socketErrors + next.socketErrors,
    latencyP50Ms: sum.latencyP50Ms === null || next.latencyP50Ms === null ? null : (sum.latencyP50Ms + next.latencyP50Ms) / 2,
    latencyP99Ms: sum.latencyP99Ms === null || next.latencyP99Ms === null ? null : Math.max(sum.latencyP99Ms, next.latencyP99Ms),
  };
}

/** Core shares over all turns, each weighted by its length. */
function weightedCore(rounds: Measurement['rounds']): TargetCoreUsage {
  let seconds = 0;
  const sum = { busy: 0, other: 0, steal: 0 };
  for (const { seconds: s, core } of rounds) {
    seconds += s;
    sum.busy += core.busy * s;
    sum.other += core.other * s;
    sum.steal += core.steal * s;
  }
  return { busy: sum.busy / seconds, other: sum.other / seconds, steal: sum.steal / seconds };
}

/**
 * Saturated throughput and CPU per request of every target, in turns: on a shared VM the
 * machine's speed drifts by tens of percent from one minute to the next, so each target is
 * measured in `rounds` short turns, alternating (the order rotates every round), and Sluice is
 * compared to the bare forwarder turn by turn.
 */
async function measureThroughput(ctx: RunContext, targets: Target[], workload: Workload): Promise<Measurement[]> {
  const { options } = ctx;
  const measurements: Measurement[] = [];
  const ready: Prepared[] = [];
  for (const target of targets) {
    let prepared: Prepared | Measurement;
    try {
      prepared = await prepare(ctx, target, workload);
    } catch (error) {
      prepared = emptyMeasurement(target.id, workload, `failed: ${errorMessage(error)}`);
    }
    if ('wrkOptions' in prepared) {
      ready.push(prepared);
      measurements.push(prepared.measurement);
    } else measurements.push(prepared);
  }
  const seconds = Math.max(1, Math.round(options.durationSeconds / options.rounds));
  for (let round = 0; round < options.rounds; round++) {
    progress(`[${workload.id}] wrk round ${round + 1}/${options.rounds}, ${seconds}s per target`);
    for (let i = 0; i < ready.length; i++) {
      const prepared = ready[(i + round) % ready.length]!;
      if (prepared.measurement.skipped !== null) continue;
      try {
        await measureRound(ctx, prepared, seconds);
      } catch (error) {
        // One target failing under load (a crash, a wedged process) must not cost the others' figures.
        prepared.measurement.skipped = `failed: ${errorMessage(error)}`;
      }
    }
  }
  for (const { measurement } of ready) {
    const core = measurement.targetCore;
    if (core !== null && (core.other > FOREIGN_CORE_SHARE_WARNING || core.steal > FOREIGN_CORE_SHARE_WARNING)) {
      measurement.notes.push(
        `core ${TARGET_CPU} was shared during the wrk runs (${pct(core.other)} other processes/interrupts, ` +
          `${pct(core.steal)} steal): req/s is understated, CPU us/req still holds`,
      );
    }
    const wrk = measurement.wrk;
    if (wrk !== null && (wrk.non2xx > 0 || wrk.socketErrors > 0)) {
      measurement.notes.push(`wrk saw ${wrk.non2xx} non-2xx responses and ${wrk.socketErrors} socket errors`);
    }
  }
  return measurements;
}

/** Latency at a fixed rate, all measured targets of one workload taking turns in one generator run. */
async function measureLatency(ctx: RunContext, workload: Workload, measured: Array<{ target: Target; measurement: Measurement }>): Promise<void> {
  if (measured.length === 0) return;
  const { options } = ctx;
  const config: OpenLoopConfig = {
    targets: measured.map(({ target }) => ({
      name: target.id,
      url: `${target.origin}${CHAT_PATH}`,
      headers: target.headers,
      body: chatRequestBody(target.model, workload.stream),
    })),
    rate: options.openLoopRate,
    durationSeconds: options.durationSeconds,
    sliceSeconds: OPEN_LOOP_SLICE_SECONDS,
    warmupSeconds: OPEN_LOOP_WARMUP_SECONDS,
    expectSse: workload.stream,
    drainTimeoutMs: OPEN_LOOP_DRAIN_TIMEOUT_MS,
  };
  const names = measured.map(({ target }) => TARGET_LABELS[target.id]).join(', ');
  progress(`[${workload.id}] open loop ${options.openLoopRate} req/s, ${names} in turns, ${openLoopSeconds(config)}s`);
  let results: OpenLoopResults;
  try {
    results = await runOpenLoop(ctx.children, config, LOAD_CPU);
  } catch (error) {
    for (const { measurement } of measured) measurement.notes.push(`open loop failed: ${errorMessage(error)}`);
    return;
  }
  for (const { target, measurement } of measured) {
    const openLoop = results[target.id];
    if (openLoop === undefined) continue;
    measurement.openLoop = openLoop;
    if (openLoop.errors > 0) measurement.notes.push(`open loop: ${openLoop.errors} failed requests (first: ${openLoop.firstError ?? '?'})`);
    if (openLoop.sendLagP99Ms > SEND_LAG_WARNING_MS) {
      measurement.notes.push(
        `open loop sends fell behind schedule (p99 ${openLoop.sendLagP99Ms.toFixed(1)} ms late): the load-generator core was busy elsewhere`,
      );
    }
    measurement.peakRssBytes = readPeakRssBytes(target.process.pid);
  }
}

function addLatencyDeltas(measurements: Measurement[]): void {
  for (const m of measurements) {
    if (m.target === 'mock' || m.openLoop === null) continue;
    const base = measurements.find((b) => b.target === 'mock' && b.workload === m.workload && b.openLoop !== null)?.openLoop;
    if (!base) {
      m.notes.push('added latency needs the mock target in --targets as its baseline');
      continue;
    }
    m.addedP50Ms = m.openLoop.p50Ms - base.p50Ms;
    m.addedP99Ms = m.openLoop.p99Ms - base.p99Ms;
  }
}

async function startTargets(ctx: RunContext, report: BenchReport): Promise<Target[]> {
  const { options, children, workDir } = ctx;
  // The mock runs even when not measured itself: it is the upstream of the other two.
  progress('starting mock provider');
  const mock = await startMock(children, workDir, TARGET_CPU);
  ctx.targetCorePids.push(mock.process.pid);
  const targets: Target[] = options.targets.includes('mock') ? [mock] : [];
  if (options.targets.includes('bare')) {
    progress('starting bare forwarder');
    const bare = await startBare(children, workDir, TARGET_CPU, mock);
    ctx.targetCorePids.push(bare.process.pid);
    targets.push(bare);
  }
  if (options.targets.includes('sluice')) {
    progress('starting sluice (core/main.ts)');
    const sluice = await startSluice(children, workDir, TARGET_CPU, mock, options.configPath, options.caller, options.apiKey);
    if (sluice.ok) {
      ctx.targetCorePids.push(sluice.target.process.pid);
      targets.push(sluice.target);
    } else {
      progress(`skipping sluice: ${sluice.reason}`);
      report.skippedTargets.push({ target: 'sluice', reason: sluice.reason });
    }
  }
  return targets;
}

async function bench(ctx: RunContext): Promise<BenchReport> {
  const { options } = ctx;
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    environment: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      pinned: PINNING_AVAILABLE,
      cores: {
        'mock, bare forwarder, sluice': String(TARGET_CPU),
        'wrk, open-loop generator, harness': String(LOAD_CPU),
      },
    },
    settings: {
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      rounds: options.rounds,
      connections: options.connections,
      openLoopRate: options.openLoopRate,
      configPath: options.configPath,
      caller: options.caller,
    },
    skippedTargets: [],
    measurements: [],
    comparisons: [],
  };
  const targets = await startTargets(ctx, report);
  for (const workload of WORKLOADS) {
    const measurements = await measureThroughput(ctx, targets, workload);
    report.measurements.push(...measurements);
    const measured = targets
      .map((target, i) => ({ target, measurement: measurements[i]! }))
      .filter(({ measurement }) => measurement.skipped === null);
    await measureLatency(ctx, workload, measured);
  }
  addLatencyDeltas(report.measurements);
  report.comparisons = compare(report.measurements);
  return report;
}

async function main(): Promise<number> {
  let options: BenchOptions | null;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === null) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!wrkAvailable()) {
    process.stderr.write('wrk is not installed (apt-get install -y wrk)\n');
    return 2;
  }
  if (!PINNING_AVAILABLE) progress('warning: taskset or a second core is missing; running unpinned');
  pinSelf(LOAD_CPU);

  const workDir = await mkdtemp(join(tmpdir(), 'sluice-bench-'));
  const children = new ChildSet();
  // Whatever happens, no child outlives the harness and no temp dir is left behind.
  process.on('exit', () => {
    children.killAllNow();
    rmSync(workDir, { recursive: true, force: true });
  });
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      progress(`\n${signal}: stopping children`);
      void children.stopAll(500).finally(() => process.exit(130));
    });
  }

  try {
    const report = await bench({ options, children, workDir, targetCorePids: [] });
    process.stdout.write(renderReport(report));
    if (options.jsonPath !== null) {
      await writeJsonReport(options.jsonPath, report);
      progress(`results written to ${options.jsonPath}`);
    }
    return 0;
  } catch (error) {
    // A child killed by the interrupt makes the step in progress fail; that is not news.
    if (interrupted) return 130;
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  } finally {
    await children.stopAll();
    await rm(workDir, { recursive: true, force: true });
  }
}

process.exit(await main());
