// CPU time and peak memory of a process, and busy time of a core, read from /proc. CPU time per request is the figure
// we trust most on a small, noisy machine: wall-clock throughput moves with whatever else the
// box is doing, but the CPU a process spends on a fixed number of requests barely does.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = readClockTicks();

function readClockTicks(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    // Linux has used 100 on every mainstream architecture for decades.
    return 100;
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // The process (or one of its threads) exited between listing and reading.
    return null;
  }
}

/** Pids of every live descendant, so a target that forks workers is measured whole. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const current = pending.pop();
    if (current === undefined) break;
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${current}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const children = readText(`/proc/${current}/task/${tid}/children`);
      if (!children) continue;
      for (const child of children.trim().split(/\s+/)) {
        const childPid = Number(child);
        if (Number.isInteger(childPid) && childPid > 0) {
          found.push(childPid);
          pending.push(childPid);
        }
      }
    }
  }
  return found;
}

/** utime+stime+cutime+cstime in ticks: reaped children's time lands in cutime/cstime. */
function cpuTicks(pid: number): number | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === null) return null;
  // The command name is in parentheses and may itself contain spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Field 14 (utime) of stat(5) is index 11 here, since this slice starts at field 3.
  const [utime, stime, cutime, cstime] = [fields[11], fields[12], fields[13], fields[14]].map(Number);
  if (utime === undefined || stime === undefined || cutime === undefined || cstime === undefined) return null;
  return utime + stime + cutime + cstime;
}

/** CPU seconds used so far by a process and its live descendants. */
export function readCpuSeconds(pid: number): number {
  let ticks = cpuTicks(pid);
  if (ticks === null) throw new Error(`process ${pid} is gone; cannot read its CPU time`);
  for (const child of descendants(pid)) ticks += cpuTicks(child) ?? 0;
  return ticks / CLOCK_TICKS_PER_SECOND;
}

function statusKilobytes(pid: number, field: string): number | null {
  const status = readText(`/proc/${pid}/status`);
  if (status === null) return null;
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return match?.[1] === undefined ? null : Number(match[1]);
}

/** Resident set size now (VmRSS) in bytes, of the process alone (its threads included). */
export function readRssBytes(pid: number): number | null {
  const kb = statusKilobytes(pid, 'VmRSS');
  return kb === null ? null : kb * 1024;
}

/** Peak resident set size (VmHWM) in bytes, summed over the process tree. */
export function readPeakRssBytes(pid: number): number | null {
  const own = statusKilobytes(pid, 'VmHWM');
  if (own === null) return null;
  let total = own;
  for (const child of descendants(pid)) total += statusKilobytes(child, 'VmHWM') ?? 0;
  return total * 1024;
}

export interface CoreTimes {
  /** Seconds the core ran anything: user, nice, system, irq, softirq. */
  busySeconds: number;
  /** Seconds the hypervisor ran something else while this guest core wanted to run. */
  stealSeconds: number;
}

/**
 * Cumulative times of one core from /proc/stat. Compared with the CPU time of the processes
 * pinned to that core, it shows how much of the core went elsewhere during a run: on a
 * shared or virtualised box that is the first thing to check when a figure looks odd.
 */
export function readCoreTimes(core: number): CoreTimes {
  const stat = readText('/proc/stat') ?? '';
  const line = stat.split('\n').find((row) => row.startsWith(`cpu${core} `));
  if (line === undefined) throw new Error(`/proc/stat has no line for cpu${core}`);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  return {
    busySeconds: (user + nice + system + irq + softirq) / CLOCK_TICKS_PER_SECOND,
    stealSeconds: steal / CLOCK_TICKS_PER_SECOND,
  };
}
