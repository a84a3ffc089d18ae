// Starting the three things the benchmark can aim at: the mock provider itself (the baseline),
// the bare forwarder (the ceiling for any Node gateway) and Sluice. Each runs in its own
// process so its CPU time can be read without the others', and none of it is the harness's.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitForHttp, type ChildSet, type ManagedChild } from './children.js';

export type TargetId = 'mock' | 'bare' | 'sluice';

export const TARGET_IDS: readonly TargetId[] = ['mock', 'bare', 'sluice'];

export const TARGET_LABELS: Record<TargetId, string> = {
  mock: 'mock direct',
  bare: 'bare forwarder',
  sluice: 'sluice',
};

export interface Target {
  id: TargetId;
  /** Origin the load generators call, e.g. http://127.0.0.1:4000 */
  origin: string;
  /** The model id this target expects in request bodies. */
  model: string;
  /** Credentials the client sends to this target. */
  headers: Record<string, string>;
  /** The process whose CPU and memory are this target's cost. */
  process: ManagedChild;
}

export const UPSTREAM_API_KEY = 'sk-bench-upstream';
export const SLUICE_MASTER_KEY = 'sk-bench-master';
const READY_TIMEOUT_MS = 10_000;
const SLUICE_READY_TIMEOUT_MS = 20_000;

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
export const REPO_ROOT = resolve(BENCH_DIR, '..');
// Sluice is measured as `npm start` runs it: compiled to dist/ (tsx's on-the-fly output keeps
// function names with a helper call at every closure, which costs about a fifth more CPU).
const SLUICE_ENTRY = join(REPO_ROOT, 'dist', 'core', 'main.js');

function nodeTs(script: string, args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', script, ...args] };
}

async function tailOf(file: string, lines = 20): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function startOrThrow(
  children: ChildSet,
  name: string,
  launch: { command: string; args: string[] },
  cpu: number,
  logFile: string,
  readyUrl: string,
): Promise<ManagedChild> {
  const child = children.start({ name, ...launch, cpu, logFile, cwd: REPO_ROOT });
  if (!(await waitForHttp(readyUrl, child, READY_TIMEOUT_MS))) {
    throw new Error(`${name} did not become ready at ${readyUrl}; last lines of its log:\n${await tailOf(logFile)}`);
  }
  return child;
}

export async function startMock(children: ChildSet, workDir: string, cpu: number): Promise<Target> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const launch = nodeTs(join(BENCH_DIR, 'mock-provider.ts'), ['--port', String(port)]);
  const child = await startOrThrow(children, 'mock provider', launch, cpu, join(workDir, 'mock.log'), `${origin}/v1/models`);
  return { id: 'mock', origin, model: 'gpt-4o-mini', headers: { authorization: `Bearer ${UPSTREAM_API_KEY}` }, process: child };
}

export async function startBare(children: ChildSet, workDir: string, cpu: number, mock: Target): Promise<Target> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const launch = nodeTs(join(BENCH_DIR, 'bare-forwarder.ts'), ['--port', String(port), '--upstream', mock.origin, '--api-key', UPSTREAM_API_KEY]);
  const child = await startOrThrow(children, 'bare forwarder', launch, cpu, join(workDir, 'bare.log'), `${origin}/v1/models`);
  return { id: 'bare', origin, model: 'gpt-4o-mini', headers: { authorization: `Bearer ${UPSTREAM_API_KEY}` }, process: child };
}

export const CALLERS = ['master', 'key', 'limited-key'] as const;
export type Caller = (typeof CALLERS)[number];

/** The key `--caller limited-key` creates: a budget and rate limits no bench run reaches, so each is checked and settled on every call. */
const LIMITED_KEY = {
  budget: { amount_usd: 1_000_000, period: 'total' },
  rate_limit: { rpm: 1_000_000_000, tpm: 1_000_000_000_000, concurrent: 100_000 },
};

export type SluiceStart = { ok: true; target: Target } | { ok: false; reason: string };

/** Sluice may not exist yet, or may not start: either is reported and the run goes on without it. */
export async function startSluice(
  children: ChildSet,
  workDir: string,
  cpu: number | null,
  mock: Target,
  configPath: string | null,
  caller: Caller = 'master',
  /** A bearer token to send instead (a key the config's own key store knows), e.g. one with limits. */
  apiKey: string | null = null,
): Promise<SluiceStart> {
  try {
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(REPO_ROOT, 'tsconfig.build.json')], { cwd: REPO_ROOT, stdio: 'pipe' });
  } catch (err) {
    return { ok: false, reason: `the build (tsc -p tsconfig.build.json) failed: ${String((err as { stdout?: Buffer }).stdout ?? err)}` };
  }
  if (!existsSync(SLUICE_ENTRY)) return { ok: false, reason: `${SLUICE_ENTRY} was not built` };
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = join(workDir, 'sluice-data');
  await mkdir(dataDir, { recursive: true });
  const logFile = join(workDir, 'sluice.log');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_MASTER_KEY: SLUICE_MASTER_KEY,
    OPENAI_API_KEY: UPSTREAM_API_KEY,
    OPENAI_BASE_URL: `${mock.origin}/v1`,
  };
  if (configPath !== null) env.GATEWAY_CONFIG = resolve(configPath);
  else delete env.GATEWAY_CONFIG;
  // As `npm start` runs it: plain node, no TypeScript loader.
  const child = children.start({ name: 'sluice', command: process.execPath, args: [SLUICE_ENTRY], cpu, logFile, cwd: REPO_ROOT, env });
  if (!(await waitForHttp(`${origin}/healthz`, child, SLUICE_READY_TIMEOUT_MS))) {
    const exitedEarly = child.hasExited();
    // A half-started gateway must not keep burning the targets' core during the other measurements.
    await child.stop();
    const why = exitedEarly ? `exited (${await child.exited})` : `did not answer GET /healthz with 200 within ${SLUICE_READY_TIMEOUT_MS / 1000} s`;
    return { ok: false, reason: `sluice ${why}; last lines of its log:\n${await tailOf(logFile)}` };
  }
  let token = apiKey ?? SLUICE_MASTER_KEY;
  if (caller !== 'master') {
    try {
      token = await createApiKey(origin, caller === 'limited-key' ? LIMITED_KEY : {});
    } catch (err) {
      await child.stop();
      return { ok: false, reason: `no API key to call it with: ${(err as Error).message}` };
    }
  }
  return {
    ok: true,
    target: { id: 'sluice', origin, model: 'openai/gpt-4o-mini', headers: { authorization: `Bearer ${token}` }, process: child },
  };
}

/** The secret of a new API key (the keys plugin must be in the config). */
async function createApiKey(origin: string, limits: object): Promise<string> {
  const res = await fetch(`${origin}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SLUICE_MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', ...limits }),
  });
  const body = (await res.json()) as { secret?: string };
  if (res.status !== 201 || body.secret === undefined) throw new Error(`POST /admin/keys answered ${res.status}: ${JSON.stringify(body)}`);
  return body.secret;
}
