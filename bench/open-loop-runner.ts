// Harness side of the open-loop latency measurement: starts bench/open-loop.ts in its own
// process on the load-generator core and reads back its summary.
import { fileURLToPath } from 'node:url';
import type { ChildSet } from './children.js';

export interface OpenLoopTarget {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface OpenLoopConfig {
  /** Measured in turns, slice by slice, so that a burst of noise on the box hits all of them alike. */
  targets: OpenLoopTarget[];
  /** Requests per second, fired on schedule whether or not earlier ones have completed. */
  rate: number;
  /** Seconds of recorded load per target. */
  durationSeconds: number;
  /** Length of one turn on one target. */
  sliceSeconds: number;
  /** Seconds per target, before recording starts, whose requests are not recorded (JIT, connection setup). */
  warmupSeconds: number;
  /** Streaming responses must end with `data: [DONE]` to count as successful. */
  expectSse: boolean;
  /** How long to wait for stragglers after the last request is sent. */
  drainTimeoutMs: number;
}

export interface OpenLoopResult {
  sent: number;
  recorded: number;
  errors: number;
  firstError: string | null;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  /** How late requests left relative to the schedule; large values mean the generator was starved of CPU. */
  sendLagP99Ms: number;
  sendLagMaxMs: number;
}

export type OpenLoopResults = Record<string, OpenLoopResult>;

const PROGRAM = fileURLToPath(new URL('./open-loop.ts', import.meta.url));

function isResults(value: unknown, names: string[]): value is OpenLoopResults {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return names.every((name) => {
    const entry = record[name];
    return typeof entry === 'object' && entry !== null && typeof (entry as { p50Ms?: unknown }).p50Ms === 'number';
  });
}

export function openLoopSeconds(config: OpenLoopConfig): number {
  return config.targets.length * (config.warmupSeconds + config.durationSeconds);
}

export async function runOpenLoop(children: ChildSet, config: OpenLoopConfig, cpu: number): Promise<OpenLoopResults> {
  const budgetMs = openLoopSeconds(config) * 1000 + config.drainTimeoutMs + 15_000;
  const result = await children.run(
    {
      name: 'open-loop',
      command: process.execPath,
      args: ['--import', 'tsx', PROGRAM, JSON.stringify(config)],
      cpu,
    },
    budgetMs,
  );
  if (result.timedOut) throw new Error(`open-loop generator did not finish within ${budgetMs} ms`);
  const lastLine = result.stdout.trim().split('\n').pop() ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(lastLine);
  } catch {
    throw new Error(`open-loop generator failed (exit ${String(result.code)}): ${result.stderr.trim() || result.stdout.trim()}`);
  }
  const names = config.targets.map((target) => target.name);
  if (!isResults(parsed, names)) throw new Error(`open-loop generator printed an unexpected result: ${lastLine}`);
  return parsed;
}
