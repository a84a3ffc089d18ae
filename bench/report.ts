// The shape of a benchmark's results and their rendering: a table per workload, then Sluice
// against the bare forwarder with the project's performance targets.
import { writeFile } from 'node:fs/promises';
import type { OpenLoopResult } from './open-loop-runner.js';
import { TARGET_LABELS, type Caller, type TargetId } from './targets.js';
import type { WrkResult } from './wrk.js';
import { WORKLOADS, type WorkloadId } from './workloads.js';

const CALLER_TEXT: Record<Caller, string> = { master: 'the master key', key: 'an API key', 'limited-key': 'an API key with a budget and rate limits' };

/** The performance targets Sluice is held to (bench/README.md). */
export const GOALS = { cpuRatioMax: 1.4, addedP50MaxMs: 0.5, addedP99MaxMs: 2 } as const;

export interface Measurement {
  target: TargetId;
  workload: WorkloadId;
  /** Set when the target could not be measured on this workload; all figures are then null. */
  skipped: string | null;
  /** A caveat from the preflight check or the load generators. */
  notes: string[];
  wrk: WrkResult | null;
  cpuSeconds: number | null;
  cpuMicrosPerRequest: number | null;
  /** Each wrk turn of the target (rounds alternate between targets). */
  rounds: Array<{ requests: number; seconds: number; cpuSeconds: number; core: TargetCoreUsage }>;
  peakRssBytes: number | null;
  /** What core 0 did during the measured wrk run, as fractions of the run's wall time. */
  targetCore: TargetCoreUsage | null;
  openLoop: OpenLoopResult | null;
  addedP50Ms: number | null;
  addedP99Ms: number | null;
}

export interface TargetCoreUsage {
  /** Busy share of the core; near 1 means the target side was the bottleneck, as intended. */
  busy: number;
  /** Busy share not accounted to the benchmark's own processes: other processes and interrupts. */
  other: number;
  /** Share the hypervisor gave to someone else. */
  steal: number;
}

export interface Comparison {
  workload: WorkloadId;
  /** The median of the turn-by-turn ratios (each Sluice turn against the bare forwarder's of the same round). */
  cpuPerRequestRatio: number | null;
  /** The lowest and highest turn-by-turn ratio. */
  cpuPerRequestRatioRange: [number, number] | null;
  /** Sluice's CPU time per request over all its turns against the bare forwarder's over all its turns. */
  cpuPerRequestRatioOverall: number | null;
  requestsPerSecondRatio: number | null;
  addedP50Ms: number | null;
  addedP99Ms: number | null;
}

export interface BenchReport {
  startedAt: string;
  environment: { node: string; cpus: number; cpuModel: string; pinned: boolean; cores: Record<string, string> };
  settings: { durationSeconds: number; warmupSeconds: number; rounds: number; connections: number; openLoopRate: number; configPath: string | null; caller: Caller };
  skippedTargets: { target: TargetId; reason: string }[];
  measurements: Measurement[];
  comparisons: Comparison[];
}

function ratio(numerator: number | null | undefined, denominator: number | null | undefined): number | null {
  if (numerator == null || denominator == null || denominator === 0) return null;
  return numerator / denominator;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Sluice's CPU per request over the bare forwarder's, round by round. */
function roundRatios(sluice: Measurement, bare: Measurement | undefined): number[] {
  if (!bare) return [];
  const perRequest = (r: Measurement['rounds'][number]): number | null => (r.requests > 0 ? r.cpuSeconds / r.requests : null);
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(sluice.rounds.length, bare.rounds.length); i++) {
    const value = ratio(perRequest(sluice.rounds[i]!), perRequest(bare.rounds[i]!));
    if (value !== null) ratios.push(value);
  }
  return ratios;
}

export function compare(measurements: Measurement[]): Comparison[] {
  return WORKLOADS.flatMap((workload) => {
    const find = (target: TargetId): Measurement | undefined =>
      measurements.find((m) => m.target === target && m.workload === workload.id && m.skipped === null);
    const sluice = find('sluice');
    if (!sluice) return [];
    const bare = find('bare');
    const ratios = roundRatios(sluice, bare);
    return [
      {
        workload: workload.id,
        cpuPerRequestRatio: ratios.length > 0 ? median(ratios) : null,
        cpuPerRequestRatioRange: ratios.length > 0 ? [Math.min(...ratios), Math.max(...ratios)] : null,
        cpuPerRequestRatioOverall: ratio(sluice.cpuMicrosPerRequest, bare?.cpuMicrosPerRequest),
        requestsPerSecondRatio: ratio(sluice.wrk?.requestsPerSecond, bare?.wrk?.requestsPerSecond),
        addedP50Ms: sluice.addedP50Ms,
        addedP99Ms: sluice.addedP99Ms,
      },
    ];
  });
}

function fixed(value: number | null | undefined, digits: number): string {
  return value == null || Number.isNaN(value) ? '-' : value.toFixed(digits);
}

function signed(value: number | null, digits: number): string {
  if (value === null || Number.isNaN(value)) return '-';
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  // The first column is a name, the rest are numbers: left- and right-aligned respectively.
  const line = (cells: string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

function errorCount(m: Measurement): string {
  const count = (m.wrk ? m.wrk.non2xx + m.wrk.socketErrors : 0) + (m.openLoop?.errors ?? 0);
  return String(count);
}

function workloadTable(report: BenchReport, workload: WorkloadId): string {
  const rows = report.measurements
    .filter((m) => m.workload === workload)
    .map((m) =>
      m.skipped !== null
        ? [TARGET_LABELS[m.target], 'skipped', '', '', '', '', '', '', '', '']
        : [
            TARGET_LABELS[m.target],
            fixed(m.wrk?.requestsPerSecond, 0),
            fixed(m.cpuMicrosPerRequest, 1),
            m.targetCore === null ? '-' : `${(m.targetCore.busy * 100).toFixed(0)}%`,
            fixed(m.peakRssBytes === null ? null : m.peakRssBytes / 2 ** 20, 1),
            fixed(m.openLoop?.p50Ms, 3),
            fixed(m.openLoop?.p99Ms, 3),
            m.target === 'mock' ? '(base)' : signed(m.addedP50Ms, 3),
            m.target === 'mock' ? '(base)' : signed(m.addedP99Ms, 3),
            errorCount(m),
          ],
    );
  const rate = report.settings.openLoopRate;
  return table(
    ['target', 'req/s', 'CPU us/req', 'core0 busy', 'peak RSS MB', `p50 ms@${rate}`, `p99 ms@${rate}`, 'added p50', 'added p99', 'errors'],
    rows,
  );
}

function verdict(ok: boolean | null): string {
  return ok === null ? '' : ok ? ' ok' : ' MISS';
}

function comparisonTable(comparisons: Comparison[]): string {
  const rows = comparisons.map((c) => [
    c.workload,
    `${fixed(c.cpuPerRequestRatio, 2)}x${verdict(c.cpuPerRequestRatio === null ? null : c.cpuPerRequestRatio <= GOALS.cpuRatioMax)}`,
    c.cpuPerRequestRatioRange === null ? '-' : `${fixed(c.cpuPerRequestRatioRange[0], 2)}-${fixed(c.cpuPerRequestRatioRange[1], 2)}x`,
    `${fixed(c.cpuPerRequestRatioOverall, 2)}x`,
    `${fixed(c.requestsPerSecondRatio, 2)}x`,
    `${signed(c.addedP50Ms, 3)} ms${verdict(c.addedP50Ms === null ? null : c.addedP50Ms < GOALS.addedP50MaxMs)}`,
    `${signed(c.addedP99Ms, 3)} ms${verdict(c.addedP99Ms === null ? null : c.addedP99Ms < GOALS.addedP99MaxMs)}`,
  ]);
  return table(
    [
      'workload',
      `CPU/req sluice/bare, median of rounds (goal <= ${GOALS.cpuRatioMax}x)`,
      'rounds range',
      'all turns',
      'req/s sluice/bare',
      `added p50 (goal < ${GOALS.addedP50MaxMs} ms)`,
      `added p99 (goal < ${GOALS.addedP99MaxMs} ms)`,
    ],
    rows,
  );
}

export function renderReport(report: BenchReport): string {
  const { settings, environment } = report;
  const out: string[] = [
    '',
    `Sluice benchmark  ${report.startedAt}  node ${environment.node}  ${environment.cpus} cpu (${environment.cpuModel})`,
    `throughput: wrk -t1 -c${settings.connections}, ${settings.durationSeconds}s per target in ${settings.rounds} alternating turns, after ${settings.warmupSeconds}s warmup; ` +
      `latency: open loop at ${settings.openLoopRate} req/s, ${settings.durationSeconds}s per target, targets taking turns; ` +
      `sluice called with ${CALLER_TEXT[settings.caller]}`,
    environment.pinned
      ? `cores: ${Object.entries(environment.cores).map(([what, core]) => `${what} -> ${core}`).join('; ')}`
      : 'cores: NOT pinned (taskset missing or fewer than 2 cores); throughput and latency are less trustworthy',
    'CPU us/req: the target process alone (for the forwarder and sluice, not the mock behind them); ' +
      'added = target minus mock direct, same run',
  ];
  for (const skipped of report.skippedTargets) out.push('', `skipped ${skipped.target}: ${skipped.reason}`);
  for (const workload of WORKLOADS) {
    if (!report.measurements.some((m) => m.workload === workload.id)) continue;
    out.push('', `== ${workload.title} ==`, workloadTable(report, workload.id));
    for (const m of report.measurements.filter((x) => x.workload === workload.id)) {
      if (m.skipped !== null) out.push(`  ${TARGET_LABELS[m.target]}: skipped: ${m.skipped}`);
      for (const note of m.notes) out.push(`  ${TARGET_LABELS[m.target]}: ${note}`);
    }
  }
  if (report.comparisons.length > 0) out.push('', '== sluice vs bare forwarder ==', comparisonTable(report.comparisons));
  out.push('');
  return out.join('\n');
}

export async function writeJsonReport(path: string, report: BenchReport): Promise<void> {
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
}
