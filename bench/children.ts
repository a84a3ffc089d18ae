// Every process the harness starts goes through here, so that one call tears all of them down
// whatever way the run ends (success, exception, Ctrl-C), and so CPU pinning and the
// kill-on-parent-death safety net are applied in one place.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';

export interface SpawnSpec {
  name: string;
  command: string;
  args: string[];
  /** Core to pin to with `taskset -c`; null leaves the process unpinned. */
  cpu: number | null;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface LongRunningSpec extends SpawnSpec {
  /** stdout and stderr go here rather than to a pipe, so a chatty target can never block on a full pipe. */
  logFile: string;
}

export interface ManagedChild {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  readonly exited: Promise<string>;
  hasExited(): boolean;
  /** SIGTERM, then SIGKILL after graceMs; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface ToolResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** taskset only helps when there are two cores to split between load generator and target. */
export const PINNING_AVAILABLE =
  availableParallelism() >= 2 && spawnSync('taskset', ['--version'], { stdio: 'ignore' }).error === undefined;

/** setpriv (util-linux) can ask the kernel to kill a child when the harness dies, even by SIGKILL. */
const PDEATHSIG_AVAILABLE = spawnSync('setpriv', ['--help'], { stdio: 'ignore' }).error === undefined;

function launcher(spec: SpawnSpec): { command: string; args: string[] } {
  // taskset and setpriv both exec the command, so the pid we get back is the target's own pid.
  let command = spec.command;
  let args = spec.args;
  if (PDEATHSIG_AVAILABLE) {
    args = ['--pdeathsig', 'SIGKILL', command, ...args];
    command = 'setpriv';
  }
  if (spec.cpu !== null && PINNING_AVAILABLE) {
    args = ['-c', String(spec.cpu), command, ...args];
    command = 'taskset';
  }
  return { command, args };
}

/** Pins the calling process (all its threads) to one core, so the harness stays off the targets' core. */
export function pinSelf(cpu: number): void {
  if (!PINNING_AVAILABLE) return;
  spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
}

export class ChildSet {
  readonly #live = new Set<ChildProcess>();

  /** Starts a server-like process that runs until stopAll(). */
  start(spec: LongRunningSpec): ManagedChild {
    const log = openSync(spec.logFile, 'a');
    const { command, args } = launcher(spec);
    const proc = spawn(command, args, { cwd: spec.cwd, env: spec.env ?? process.env, stdio: ['ignore', log, log] });
    closeSync(log);
    const pid = proc.pid;
    if (pid === undefined) throw new Error(`could not start ${spec.name} (${command})`);
    this.#live.add(proc);
    let done = false;
    const exited = new Promise<string>((resolve) => {
      proc.once('exit', (code, signal) => {
        done = true;
        this.#live.delete(proc);
        resolve(signal ?? String(code));
      });
      proc.once('error', (error) => {
        done = true;
        this.#live.delete(proc);
        resolve(error.message);
      });
    });
    const stop = async (graceMs = 2000): Promise<void> => {
      if (done) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    };
    return { name: spec.name, pid, logFile: spec.logFile, exited, hasExited: () => done, stop };
  }

  /** Runs a bounded tool (wrk, the open-loop generator) and collects its output. */
  run(spec: SpawnSpec, timeoutMs: number): Promise<ToolResult> {
    const { command, args } = launcher(spec);
    const proc = spawn(command, args, { cwd: spec.cwd, env: spec.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#live.add(proc);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    proc.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // The tools bound themselves; this is the backstop that keeps a wedged one from hanging the run.
    const timer = setTimeout(() => {
      timedOut = true;
      proc.kill('SIGKILL');
    }, timeoutMs);
    return new Promise<ToolResult>((resolve, reject) => {
      proc.once('error', (error) => {
        clearTimeout(timer);
        this.#live.delete(proc);
        reject(new Error(`${spec.name}: ${error.message}`));
      });
      proc.once('close', (code, signal) => {
        clearTimeout(timer);
        this.#live.delete(proc);
        resolve({ code, signal, stdout, stderr, timedOut });
      });
    });
  }

  /** SIGTERM everything, then SIGKILL whatever has not exited after a grace period. */
  async stopAll(graceMs = 2000): Promise<void> {
    const procs = [...this.#live];
    if (procs.length === 0) return;
    const gone = procs.map(
      (proc) =>
        new Promise<void>((resolve) => {
          if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
          proc.once('exit', () => resolve());
        }),
    );
    for (const proc of procs) proc.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const proc of procs) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    }, graceMs);
    await Promise.all(gone);
    clearTimeout(timer);
    this.#live.clear();
  }

  /** Last resort from a synchronous 'exit' handler, where nothing can be awaited. */
  killAllNow(): void {
    for (const proc of this.#live) proc.kill('SIGKILL');
    this.#live.clear();
  }
}

/** A port that was free a moment ago. The gap before the child binds it is harmless on a quiet box. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('could not allocate a port'))));
    });
  });
}

/** Polls url until it answers 200; false if the child dies or the deadline passes first. */
export async function waitForHttp(url: string, child: ManagedChild, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.hasExited()) return false;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
