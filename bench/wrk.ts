// Saturation throughput with wrk: a C load generator, so it needs far less CPU per request
// than any Node target and a single pinned thread can keep one core of target busy.
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import type { ChildSet } from './children.js';

export interface WrkRequest {
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

export interface WrkOptions {
  url: string;
  scriptPath: string;
  seconds: number;
  connections: number;
  threads: number;
  cpu: number;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  non2xx: number;
  socketErrors: number;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
}

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/** A Lua 5.1 double-quoted string literal; control and non-ASCII bytes become decimal escapes. */
function luaString(value: string): string {
  let out = '"';
  for (const byte of Buffer.from(value, 'utf8')) {
    if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** wrk sends a GET with no body unless a script says otherwise. */
export async function writeWrkScript(path: string, request: WrkRequest): Promise<void> {
  const lines = [`wrk.method = ${luaString(request.method)}`, `wrk.body = ${luaString(request.body)}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  await writeFile(path, `${lines.join('\n')}\n`);
}

const UNIT_TO_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(output: string, percentile: string): number | null {
  const match = new RegExp(`^\\s+${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(output);
  const value = match?.[1];
  const unit = match?.[2];
  if (value === undefined || unit === undefined) return null;
  return Number(value) * (UNIT_TO_MS[unit] ?? Number.NaN);
}

export function parseWrkOutput(output: string): WrkResult {
  const totals = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(output);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (totals?.[1] === undefined || totals[2] === undefined || totals[3] === undefined || rate?.[1] === undefined) {
    throw new Error(`could not parse wrk output:\n${output}`);
  }
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0;
  return {
    requests: Number(totals[1]),
    seconds: (Number(totals[2]) * (UNIT_TO_MS[totals[3]] ?? Number.NaN)) / 1000,
    requestsPerSecond: Number(rate[1]),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors,
    latencyP50Ms: latencyMs(output, '50'),
    latencyP99Ms: latencyMs(output, '99'),
  };
}

export async function runWrk(children: ChildSet, options: WrkOptions): Promise<WrkResult> {
  const timeoutSeconds = 5;
  const result = await children.run(
    {
      name: 'wrk',
      command: 'wrk',
      args: [
        `-t${options.threads}`,
        `-c${options.connections}`,
        `-d${options.seconds}s`,
        `--timeout`,
        `${timeoutSeconds}s`,
        '--latency',
        '-s',
        options.scriptPath,
        options.url,
      ],
      cpu: options.cpu,
    },
    (options.seconds + timeoutSeconds + 10) * 1000,
  );
  if (result.timedOut) throw new Error('wrk did not finish in time');
  if (result.code !== 0) throw new Error(`wrk exited with ${String(result.code ?? result.signal)}: ${result.stderr.trim()}`);
  // wrk reports a broken script on stderr and then load-tests with a plain GET anyway.
  if (result.stderr.trim() !== '') throw new Error(`wrk complained: ${result.stderr.trim()}`);
  return parseWrkOutput(result.stdout);
}
