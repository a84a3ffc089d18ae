// What many long streams held at once cost the gateway: its idle RSS after start, then N
// concurrent streams (default 1,000 of 100 events 100 ms apart, ~10 s each) through Sluice to
// a paced mock, with the total time against one stream's time, the peak RSS and where the run's
// CPU went (Sluice, the mock, this client, the whole machine). Sluice runs as
// `npm start` runs it (dist/, plain node); mock and Sluice each in their own process.
//
// Usage: node --import tsx bench/stream-memory.ts [--streams 1000] [--events 100] [--interval-ms 100]
//          [--idle-wait 10] [--config file.yaml] [--json out.json]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { ChildSet, freePort, waitForHttp } from './children.js';
import { readCoreTimes, readCpuSeconds, readPeakRssBytes, readRssBytes } from './proc-stats.js';
import { REPO_ROOT, SLUICE_MASTER_KEY, startSluice, type Target } from './targets.js';
import { chatRequestBody } from './workloads.js';

const GOALS = { idleMb: 90, peakMb: 300, slowdown: 1.1 };

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '1000' },
    events: { type: 'string', default: '100' },
    'interval-ms': { type: 'string', default: '100' },
    'idle-wait': { type: 'string', default: '10' },
    config: { type: 'string' },
    json: { type: 'string' },
  },
});
const streams = Number(values.streams);
const events = Number(values.events);
const intervalMs = Number(values['interval-ms']);
const idleWaitS = Number(values['idle-wait']);
const oneStreamMs = events * intervalMs;

interface StreamResult {
  ok: boolean;
  firstByteMs: number;
  endMs: number;
}

/** One stream, read to its end; ok when it ended with `data: [DONE]`. */
async function oneStream(origin: string, body: string, dispatcher: Agent, t0: number): Promise<StreamResult> {
  try {
    const res = await request(`${origin}/v1/chat/completions`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: `Bearer ${SLUICE_MASTER_KEY}`, 'content-type': 'application/json' },
      body,
      bodyTimeout: 0,
      headersTimeout: 0,
    });
    let firstByteMs = -1;
    let tail = '';
    for await (const chunk of res.body) {
      if (firstByteMs < 0) firstByteMs = performance.now() - t0;
      tail = (tail + String(chunk)).slice(-64);
    }
    return { ok: res.statusCode === 200 && tail.endsWith('data: [DONE]\n\n'), firstByteMs, endMs: performance.now() - t0 };
  } catch {
    return { ok: false, firstByteMs: -1, endMs: performance.now() - t0 };
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
const mb = (bytes: number | null): number => (bytes === null ? NaN : Math.round(bytes / 1e5) / 10);

/** CPU seconds of each process of the run, and of the whole machine, so far. */
function cpuNow(sluicePid: number, mockPid: number): { sluice: number; mock: number; client: number; machine: number } {
  const usage = process.cpuUsage();
  let machine = 0;
  for (let core = 0; core < cpus().length; core++) machine += readCoreTimes(core).busySeconds;
  return { sluice: readCpuSeconds(sluicePid), mock: readCpuSeconds(mockPid), client: (usage.user + usage.system) / 1e6, machine };
}

async function main(): Promise<void> {
  const children = new ChildSet();
  const workDir = await mkdtemp(join(tmpdir(), 'sluice-bench-streams-'));
  process.once('SIGINT', () => children.killAllNow());
  try {
    const mockPort = await freePort();
    const mockOrigin = `http://127.0.0.1:${mockPort}`;
    const mockArgs = ['--import', 'tsx', join(REPO_ROOT, 'bench', 'paced-mock.ts'), '--port', String(mockPort), '--events', String(events), '--interval-ms', String(intervalMs)];
    const mock = children.start({ name: 'paced mock', command: process.execPath, args: mockArgs, cpu: null, logFile: join(workDir, 'mock.log'), cwd: REPO_ROOT });
    if (!(await waitForHttp(`${mockOrigin}/v1/models`, mock, 10_000))) throw new Error('the paced mock did not start');
    const mockTarget = { id: 'mock', origin: mockOrigin, model: 'gpt-4o-mini', headers: {}, process: mock } satisfies Target;
    const started = await startSluice(children, workDir, null, mockTarget, values.config ?? null);
    if (!started.ok) throw new Error(started.reason);
    const sluice = started.target;

    await sleep(idleWaitS * 1000);
    const idleRss = readRssBytes(sluice.process.pid);
    const idlePeak = readPeakRssBytes(sluice.process.pid);

    const dispatcher = new Agent({ connections: null, keepAliveTimeout: 60_000 });
    const body = chatRequestBody(sluice.model, true);
    const cpuBefore = cpuNow(sluice.process.pid, mock.pid);
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: streams }, () => oneStream(sluice.origin, body, dispatcher, t0)));
    const totalMs = Math.max(...results.map((r) => r.endMs));
    const peakRss = readPeakRssBytes(sluice.process.pid);
    const cpuAfter = cpuNow(sluice.process.pid, mock.pid);
    await dispatcher.close();

    const firstBytes = results.filter((r) => r.firstByteMs >= 0).map((r) => r.firstByteMs).sort((a, b) => a - b);
    const failed = results.filter((r) => !r.ok).length;
    const report = {
      streams,
      stream_ms: oneStreamMs,
      idle_rss_mb: mb(idleRss),
      idle_peak_rss_mb: mb(idlePeak),
      peak_rss_mb: mb(peakRss),
      total_ms: Math.round(totalMs),
      slowdown: Math.round((totalMs / oneStreamMs) * 1000) / 1000,
      first_byte_ms: { p50: Math.round(percentile(firstBytes, 50)), p99: Math.round(percentile(firstBytes, 99)), max: Math.round(firstBytes.at(-1) ?? NaN) },
      failed,
      // Where the run's CPU went: a machine busy near its core count while Sluice is not points at the machine.
      cpu_s: {
        sluice: round2(cpuAfter.sluice - cpuBefore.sluice),
        mock: round2(cpuAfter.mock - cpuBefore.mock),
        client: round2(cpuAfter.client - cpuBefore.client),
        machine: round2(cpuAfter.machine - cpuBefore.machine),
      },
      cores: cpus().length,
    };
    const verdict = (ok: boolean): string => (ok ? 'ok' : 'MISSED');
    process.stdout.write(
      [
        `idle RSS after ${idleWaitS} s: ${report.idle_rss_mb} MB (goal <= ${GOALS.idleMb}: ${verdict(report.idle_rss_mb <= GOALS.idleMb)})`,
        `${streams} concurrent streams of ${events} events every ${intervalMs} ms (${oneStreamMs / 1000} s each):`,
        `  total ${(totalMs / 1000).toFixed(2)} s = ${report.slowdown}x one stream (goal <= ${GOALS.slowdown}x: ${verdict(report.slowdown <= GOALS.slowdown)})`,
        `  peak RSS ${report.peak_rss_mb} MB (goal < ${GOALS.peakMb}: ${verdict(report.peak_rss_mb < GOALS.peakMb)})`,
        `  first byte p50 ${report.first_byte_ms.p50} ms, p99 ${report.first_byte_ms.p99} ms, max ${report.first_byte_ms.max} ms; failed streams: ${failed}`,
        `  CPU over the run: Sluice ${report.cpu_s.sluice} s (${((report.cpu_s.sluice * 1e6) / streams).toFixed(0)} µs per stream), mock ${report.cpu_s.mock} s, this client ${report.cpu_s.client} s; the machine ${report.cpu_s.machine} s of ${((report.cores * totalMs) / 1000).toFixed(1)} core-seconds`,
        '',
      ].join('\n'),
    );
    if (values.json) await writeFile(values.json, JSON.stringify(report, null, 2) + '\n');
  } finally {
    await children.stopAll();
    await rm(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`stream-memory: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
