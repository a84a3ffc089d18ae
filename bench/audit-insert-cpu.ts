// What one audit entry costs in CPU, from the request loop's hand-over to its row: N chat
// entries (bodies of 600-2,000 bytes, 2-3 labels) go through the audit writer (stringify here,
// journal and SQLite in its worker) into a fresh store, and process.cpuUsage() (every thread of
// the process) is read around it. The variants (the body index off, on) alternate A/B/A/B for
// --rounds each, to see through a busy machine's noise; prints one JSON object with each round's
// µs per entry and each variant's median.
//
//   node --import tsx bench/audit-insert-cpu.ts [--entries 20000] [--rounds 4]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createLogger } from '../core/logger.js';
import type { AuditEntry } from '../plugins/audit/audit-entry.js';
import { syntheticEntry } from '../plugins/audit/store/synthetic-entry.js';
import { AuditWriter } from '../plugins/audit/writer/audit-writer.js';

const { values: args } = parseArgs({
  options: {
    entries: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '4' },
  },
});
const ENTRIES = Number(args.entries);
const ROUNDS = Number(args.rounds);
// Captures handed over per event-loop turn, as a loaded gateway does.
const PER_TURN = 50;
const WORDS = 'the of and to in is that for it as with was on be by this are or at from have an not but what all were when we there can your which said if do will each about how up out them then'.split(' ');

function prose(n: number, bytes: number): string {
  let s = '';
  for (let i = 0; s.length < bytes; i++) s += `${WORDS[(n * 7 + i * 13) % WORDS.length]} `;
  return s;
}

function entryOf(n: number): AuditEntry {
  const model = `demo/model-${n % 20}`;
  const labels: Record<string, string> = { team: `team-${n % 8}`, env: ['prod', 'staging', 'dev'][n % 3]! };
  if (n % 2 === 0) labels['user'] = `user-${n % 200}`;
  return syntheticEntry({
    id: `cpu-${n}-${Math.random().toString(36).slice(2)}`,
    ts: Date.now(),
    key_id: `key_${n % 50}`,
    model,
    resolved_model: model,
    provider: `provider-${n % 4}`,
    labels,
    request_body: JSON.stringify({ model, messages: [{ role: 'user', content: prose(n, 200 + (n % 400)) }] }),
    response_body: JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: prose(n + 1, 250 + (n % 1000)) }, finish_reason: 'stop' }] }),
  });
}

async function round(entries: readonly AuditEntry[], bodyIndex: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-audit-cpu-'));
  const writer = await AuditWriter.start<AuditEntry>({
    spec: { kind: 'sqlite', file: join(dir, 'store.db'), bodyIndex },
    dir,
    materialize: (e) => e,
    batchSize: 500,
    flushIntervalMs: 5,
    maxQueue: 1_000_000,
    logger: createLogger('error'),
  });
  try {
    const before = process.cpuUsage();
    for (let i = 0; i < entries.length; i++) {
      writer.push(entries[i]!);
      if (i % PER_TURN === PER_TURN - 1) await nextTurn();
    }
    await writer.flush();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / entries.length;
  } finally {
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const VARIANTS = { body_index_off: false, body_index_on: true };
const perEntry = new Map<string, number[]>(Object.keys(VARIANTS).map((name) => [name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, bodyIndex] of Object.entries(VARIANTS)) perEntry.get(name)!.push(await round(Array.from({ length: ENTRIES }, (_, n) => entryOf(n)), bodyIndex));
}
const round1 = (x: number): number => Math.round(x * 10) / 10;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(JSON.stringify({ entries: ENTRIES, variants: Object.fromEntries([...perEntry].map(([name, xs]) => [name, { us_per_entry: xs.map(round1), median: round1(median(xs)) }])) }));
