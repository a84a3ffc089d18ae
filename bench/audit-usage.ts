// The audit store at scale: fills a temporary SQLite store with 1,000,000 synthetic entries
// through its batch insert (spread over 30 days, 50 keys, 20 models on 4 providers, 3 labels),
// then times usage() for every grouping over the 30 days and over a 7-day window with
// unaligned edges, a few audit pages, text searches and get().
// Run: node --import tsx bench/audit-usage.ts [entries]
import { readdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestId } from '../core/request-id.js';
import type { AuditEntry } from '../plugins/audit/entry.js';
import { SqliteAuditStore } from '../plugins/audit/sqlite-store.js';
import type { AuditFilter, UsageGroupBy } from '../plugins/audit/store.js';
import { syntheticEntry } from '../plugins/audit/synthetic-entry.js';

const ENTRIES = Number(process.argv[2] ?? 1_000_000);
const BATCH = 500;
const DAY = 86_400_000;
const REPEAT = 5;

const PROVIDERS = ['openai', 'anthropic', 'gemini', 'mistral'];
const MODELS = Array.from({ length: 20 }, (_, i) => `${PROVIDERS[i % PROVIDERS.length]}/model-${i}`);
const KEYS = Array.from({ length: 50 }, (_, i) => `key_${i}`);
const TEAMS = ['ml', 'web', 'data', 'infra', 'search', 'ads', 'mobile', 'support'];
const ENVS = ['prod', 'staging', 'dev'];
const USERS = Array.from({ length: 200 }, (_, i) => `user${i}@example.com`);
const WORDS = 'the quick brown fox jumps over the lazy dog while the gateway counts every token it forwards'.split(' ');

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}
const random = prng(20250310);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
// Skewed like real traffic: a few keys and models carry most calls.
const pickSkewed = <T>(list: readonly T[]): T => list[Math.floor(random() * random() * list.length)]!;

function sentence(words: number): string {
  let out = '';
  for (let i = 0; i < words; i++) out += (i === 0 ? '' : ' ') + pick(WORDS);
  return out;
}

/**
 * Entry i of n, in time order as a gateway writes them (a random order would scatter every
 * index insert across the tree, which no real workload does), with a few seconds of jitter.
 */
function entry(i: number, n: number, now: number): AuditEntry {
  const model = pickSkewed(MODELS);
  const provider = model.slice(0, model.indexOf('/'));
  const prompt = sentence(20 + Math.floor(random() * 60));
  const answer = sentence(10 + Math.floor(random() * 80));
  const input = Math.ceil(prompt.length / 4) + 7;
  const output = Math.ceil(answer.length / 4);
  const failed = random() < 0.03;
  const unpriced = !failed && random() < 0.01;
  const labels: AuditEntry['labels'] = { team: pick(TEAMS), env: pick(ENVS) };
  if (random() < 0.7) labels['user'] = pickSkewed(USERS);
  const ts = now - 30 * DAY + Math.floor(((i + random()) / n) * 30 * DAY) - Math.floor(random() * 5000);
  return syntheticEntry({
    // As the gateway makes them: a UUIDv7 of the request's start.
    id: requestId(ts),
    ts,
    model,
    resolved_model: model,
    provider_model: model.slice(provider.length + 1),
    provider,
    key_id: pickSkewed(KEYS),
    key_name: 'bench key',
    labels,
    status: failed ? pick([400, 429, 500, 502]) : 200,
    stream: random() < 0.4,
    input_tokens: input,
    output_tokens: failed ? 0 : output,
    cost_pico: failed ? 0 : unpriced ? null : input * 2_500_000 + output * 10_000_000,
    request_body: JSON.stringify({ model, messages: [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: prompt }] }),
    response_body: failed
      ? JSON.stringify({ error: { message: 'upstream failed', type: 'provider_error', code: null, param: null } })
      : JSON.stringify({ id: `chatcmpl-${i}`, object: 'chat.completion', model, choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }] }),
  });
}

interface Timing {
  median: number;
  min: number;
}

function time(fn: () => unknown, repeat = REPEAT): Timing {
  const runs: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    fn();
    runs.push(performance.now() - start);
  }
  runs.sort((a, b) => a - b);
  return { median: runs[Math.floor(runs.length / 2)]!, min: runs[0]! };
}

const ms = (t: Timing): string => `${t.median.toFixed(1).padStart(8)} ms (min ${t.min.toFixed(1)})`;

const dir = mkdtempSync(join(tmpdir(), 'sluice-audit-bench-'));
const file = join(dir, 'sluice.db');
try {
  const now = Date.now();
  let store = new SqliteAuditStore(file);
  let insertMs = 0;
  const started = performance.now();
  for (let i = 0; i < ENTRIES; i += BATCH) {
    const batch: AuditEntry[] = [];
    for (let j = i; j < Math.min(i + BATCH, ENTRIES); j++) batch.push(entry(j, ENTRIES, now));
    const t = performance.now();
    store.insert(batch);
    insertMs += performance.now() - t;
    if ((i / BATCH) % 200 === 0 && i > 0) process.stderr.write(`  ${i} entries...\r`);
  }
  const wallMs = performance.now() - started;
  // Reopened, as after a restart: the planner statistics are refreshed at open.
  store.close();
  store = new SqliteAuditStore(file);
  // As the upkeep does every minute: the rollup sums kept in memory go to the table.
  await store.maintain();
  const size = ['', '-wal'].reduce((n, ext) => n + (statSync(file + ext, { throwIfNoEntry: false })?.size ?? 0), 0);
  const segments = readdirSync(join(dir, 'audit')).reduce((n, name) => n + statSync(join(dir, 'audit', name)).size, 0);

  console.log(`\naudit store benchmark: ${ENTRIES.toLocaleString('en-US')} entries, SQLite ${file}`);
  console.log(`fill: ${(insertMs / 1000).toFixed(1)} s in store.insert (batches of ${BATCH}) = ${Math.round(ENTRIES / (insertMs / 1000)).toLocaleString('en-US')} entries/s; ${(wallMs / 1000).toFixed(1)} s with generation`);
  console.log(`disk: database ${(size / 1e6).toFixed(0)} MB, segment files ${(segments / 1e6).toFixed(0)} MB`);

  const groupings: UsageGroupBy[] = ['key', 'model', 'provider', 'label:team', 'label:env', 'label:user'];
  // Unaligned on purpose: both edges cut into an hour, so raw rows are read at each end.
  const weekTo = now - 3 * DAY - 1_234_567;
  const weekFrom = weekTo - 7 * DAY - 2_345_678;
  console.log(`\nusage() (median of ${REPEAT})              30 days (to = now)              7 days, unaligned edges`);
  for (const groupBy of groupings) {
    let rows = 0;
    const month = time(() => (rows = store.usage(groupBy, now - 30 * DAY, now).length));
    const week = time(() => store.usage(groupBy, weekFrom, weekTo));
    console.log(`  ${groupBy.padEnd(12)} ${String(rows).padStart(4)} rows  ${ms(month)}     ${ms(week)}`);
  }

  console.log(`\naudit query, one page of 50 (median of ${REPEAT})`);
  const pages: Array<[string, AuditFilter]> = [
    ['newest, no filter', {}],
    ['model', { model: MODELS[3] }],
    ['model (rare)', { model: MODELS[19] }],
    ['key', { key: KEYS[7] }],
    ['key (absent)', { key: 'key_none' }],
    ['label team:ml', { labels: [{ name: 'team', value: 'ml' }] }],
    ['label user (rare)', { labels: [{ name: 'user', value: USERS[199]! }] }],
    ['status 5xx', { status: [500, 599] }],
    ['status 404 (absent: full scan)', { status: [404, 404] }],
    ['7-day window + provider', { from: weekFrom, to: weekTo, provider: 'gemini' }],
    ['q common word', { q: 'lazy dog' }],
    ['q absent, last day', { q: 'no such text anywhere', from: now - DAY, to: now }],
    ['q absent + rare key', { q: 'no such text anywhere', key: KEYS[49] }],
    ['q absent (full scan)', { q: 'no such text anywhere' }],
  ];
  for (const [name, filter] of pages) {
    let n = 0;
    const t = time(() => (n = store.query(filter, null, 50).data.length), name.includes('full scan') ? 3 : REPEAT);
    console.log(`  ${name.padEnd(30)} ${String(n).padStart(3)} rows  ${ms(t)}`);
  }
  // The 100th page: keyset pagination costs the same deep in the list as on page one.
  let cursor: string | null = null;
  for (let i = 0; i < 99; i++) cursor = store.query({}, cursor, 50).next_cursor;
  console.log(`  ${'page 100 via cursor'.padEnd(30)}  50 rows  ${ms(time(() => store.query({}, cursor, 50)))}`);
  console.log(`  ${'get(id)'.padEnd(30)}   1 row   ${ms(time(() => store.get(store.query({}, null, 1).data[0]!.id)))}`);
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
