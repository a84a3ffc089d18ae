// Does a heavy admin read stall requests? Fills an audit store with synthetic entries (or reuses
// one), starts a gateway on it in this process, and measures this process's event-loop delay
// (perf_hooks, 1 ms resolution) and the latency of chat calls sent meanwhile, while body searches
// and usage queries run over the whole store. Prints one JSON object.
//
//   node --import tsx bench/audit-store.ts [--entries 1000000] [--dir <path>] [--duration 20] [--rate 50] [--no-reads]
//   node --import tsx bench/audit-store.ts --routes [--entries 1000000] [--dir <path>] [--rounds 5]
//
// --dir keeps the filled store for the next run (a fill of 1,000,000 takes minutes); --no-reads
// measures the same chat load alone, the baseline of what the machine itself adds. --routes
// instead times each admin call the dashboard makes, one at a time with nothing else running,
// --rounds times each (dashboard-routes.ts).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.js';
import { startGateway } from '../core/gateway.js';
import { createLogger } from '../core/logger.js';
import type { AuditEntry } from '../plugins/audit/audit-entry.js';
import { SqliteStore } from '../plugins/audit/store/sqlite/sqlite-store.js';
import { syntheticEntry } from '../plugins/audit/store/synthetic-entry.js';
import { timeDashboardRoutes } from './dashboard-routes.js';

const { values: args } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    dir: { type: 'string' },
    duration: { type: 'string', default: '20' },
    rate: { type: 'string', default: '50' },
    'no-reads': { type: 'boolean', default: false },
    routes: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
  },
});
const ENTRIES = Number(args.entries);
const DURATION_MS = Number(args.duration) * 1000;
const RATE = Number(args.rate);
const MASTER_KEY = 'sk-bench-master-0123456789';
const DAY = 86_400_000;

const WORDS = 'the of and to in is that for it as with was on be by this are or at from have an not but what all were when we there can your which said if do will each about how up out them then she many some so these would other into has more her two like him see time could no make than first been its who now people my made over did down only way find use may water long little very after words called just where most know'.split(' ');

/** A body of about `words` words, varied by n, with a rare marker in one entry of 100,000. */
function prose(n: number, words: number): string {
  let s = '';
  for (let i = 0; i < words; i++) s += `${WORDS[(n * 7 + i * 13 + ((n >> 3) % 17)) % WORDS.length]} `;
  return n % 100_000 === 4242 ? `${s}rare-marker-${n}` : s;
}

function entryOf(n: number, now: number): AuditEntry {
  const model = `demo/model-${n % 20}`;
  return syntheticEntry({
    id: `bench-${String(n).padStart(8, '0')}`,
    ts: now - 30 * DAY + Math.floor((n * 30 * DAY) / ENTRIES),
    key_id: `key_${n % 50}`,
    model,
    resolved_model: model,
    provider: `provider-${n % 4}`,
    status: n % 67 === 0 ? 502 : 200,
    labels: { team: `team-${n % 8}`, env: ['prod', 'staging', 'dev'][n % 3]!, user: `user-${n % 200}` },
    request_body: JSON.stringify({ model, messages: [{ role: 'user', content: prose(n, 60) }] }),
    response_body: JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: prose(n + 1, 120) }, finish_reason: 'stop' }] }),
  });
}

function fill(file: string): number {
  const store = new SqliteStore(file);
  const now = Date.now();
  const started = performance.now();
  const batch: AuditEntry[] = [];
  for (let n = 0; n < ENTRIES; n++) {
    batch.push(entryOf(n, now));
    if (batch.length === 5000) store.audit.insertNow(batch.splice(0));
  }
  store.audit.insertNow(batch);
  void store.close();
  return performance.now() - started;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const round = (x: number): number => Math.round(x * 10) / 10;

const dir = args.dir ?? mkdtempSync(join(tmpdir(), 'sluice-audit-store-'));
mkdirSync(dir, { recursive: true });
const file = join(dir, 'sluice.db');
const fillMs = existsSync(file) ? null : fill(file);

const loaded = loadConfig({
  overrides: { server: { host: '127.0.0.1', port: 0 }, data_dir: dir, master_key: MASTER_KEY, log: { level: 'error' }, providers: { demo: { stream_delay_ms: 0 } } },
  env: {},
});
const running = await startGateway(loaded, createLogger('error'));
const url = running.url;
const headers = { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' };

async function timed(path: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url + path, { headers });
  await res.text();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return performance.now() - started;
}

if (args.routes) {
  const routes = await timeDashboardRoutes(url, headers, Number(args.rounds));
  await running.close();
  console.log(JSON.stringify({ entries: ENTRIES, fill_s: fillMs === null ? 'reused' : round(fillMs / 1000), routes_ms: routes }, null, 1));
  if (args.dir === undefined) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

// The heaviest reads there are: a search no trigram index helps (two characters: every body is
// scanned), one that finds nothing, one that finds a rare entry, and usage by a label of 200
// values over 30 days (rollups) and over a window with partial hours (raw rows).
const READS = [
  '/admin/audit?q=zq',
  '/admin/audit?q=nothing-like-this',
  '/admin/audit?q=rare-marker',
  '/admin/usage?group_by=label:user',
  `/admin/usage?group_by=model&from=${new Date(Date.now() - 7 * DAY - 1_234_567).toISOString()}`,
];

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const deadline = performance.now() + DURATION_MS;
const reads: Record<string, number[]> = {};
const readLoop = (async () => {
  while (!args['no-reads'] && performance.now() < deadline) {
    for (const path of READS) (reads[path] ??= []).push(round(await timed(path)));
  }
})();
const chats: number[] = [];
const chatBody = JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'are you there?' }] });
const pending: Array<Promise<void>> = [];
while (performance.now() < deadline) {
  pending.push(
    (async () => {
      const started = performance.now();
      const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers, body: chatBody });
      await res.text();
      chats.push(performance.now() - started);
    })(),
  );
  await sleep(1000 / RATE);
}
await readLoop;
await Promise.all(pending);
delay.disable();
await running.close();
chats.sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      entries: ENTRIES,
      fill_s: fillMs === null ? 'reused' : round(fillMs / 1000),
      event_loop_delay_ms: { p50: round(delay.percentile(50) / 1e6), p99: round(delay.percentile(99) / 1e6), max: round(delay.max / 1e6) },
      chat_ms: { count: chats.length, p50: round(quantile(chats, 0.5)), p99: round(quantile(chats, 0.99)), max: round(chats[chats.length - 1] ?? NaN) },
      reads_ms: reads,
    },
    null,
    1,
  ),
);
if (args.dir === undefined) rmSync(dir, { recursive: true, force: true });
