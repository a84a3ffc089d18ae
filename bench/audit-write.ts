// What the audit log costs per request once captured: the writer and the SQLite store, fed
// realistic captures (bench/audit-captures.ts) at a steady rate, as a busy gateway feeds them.
// Prints the CPU per entry (process.cpuUsage: every thread of the process) and the longest
// event-loop pause (monitorEventLoopDelay). Building the requests is the gateway's work, not
// the audit's: the same feed is also run into a sink that drops each request at once, and its
// CPU is subtracted, so the audit's share includes its capture, its queue and what holding the
// captures until a flush costs the garbage collector. Rounds alternate the two feeds; medians
// are printed, since a shared VM's speed drifts by a fifth from one second to the next.
//
// Run: node --import tsx bench/audit-write.ts [--entries 20000] [--rate 5000] [--rounds 3] [--scenario all|chat|chat-stream|sdk]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { RequestContext } from '../core/context.js';
import { recordOf, toEntry } from '../plugins/audit/entry.js';
import { encodeRecord, releaseRecords } from '../plugins/audit/segment-record.js';
import type { CapturedEntry } from '../plugins/audit/entry.js';
import { openAuditStore } from '../plugins/audit/index.js';
import { auditSchema } from '../plugins/audit/schema.js';
import { SpillFile } from '../plugins/audit/spill.js';
import { AuditWriter } from '../plugins/audit/writer.js';
import { CaptureSource } from './audit-captures.js';
import type { CaptureMix } from './audit-captures.js';

const SCENARIOS: Record<string, { title: string; mix: CaptureMix }> = {
  chat: { title: 'chat: the benchmark request (wrk headers), JSON answer forwarded as bytes', mix: { client: 'wrk', streamShare: 0, labels: false } },
  'chat-stream': { title: 'chat-stream: the same, streamed (the reassembled answer is serialised)', mix: { client: 'wrk', streamShare: 1, labels: false } },
  sdk: { title: 'sdk: an openai SDK client (15 headers), 40% streamed, 2-3 labels', mix: { client: 'sdk', streamShare: 0.4, labels: true } },
};

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '20000' },
    rate: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
    scenario: { type: 'string', default: 'all' },
    'batch-size': { type: 'string' },
  },
});
const ENTRIES = Number(values.entries);
const RATE = Number(values.rate);
const ROUNDS = Number(values.rounds);
const defaults = auditSchema.properties;
const BATCH_SIZE = values['batch-size'] === undefined ? defaults.batch_size.default : Number(values['batch-size']);
const CAPTURE = { trustProxy: false };
const SERIALIZE = { maxBodyBytes: defaults.max_body_bytes.default };
const quiet = { info: () => undefined, warn: (m: string) => console.warn(m), error: (m: string) => console.error(m) } as unknown as ConstructorParameters<typeof AuditWriter>[0]['logger'];

interface Sink {
  /** The log stage's work for a finished request. */
  push(ctx: RequestContext): void;
  /** Resolves once everything pushed is stored. */
  drain(): Promise<void>;
}

interface RunResult {
  cpuUs: number;
  maxPauseMs: number;
}

/**
 * The longest stretch the writer held the loop: its calls to materialize and to the store
 * within one macrotask (a microtask closes the stretch). Machine noise (a descheduled vCPU, a
 * GC of the feed's garbage) shows in the loop delay too; this is the writer's own share.
 */
class StretchMeter {
  longestMs = 0;
  #start = -1;
  readonly #close = (): void => {
    this.longestMs = Math.max(this.longestMs, performance.now() - this.#start);
    this.#start = -1;
  };

  wrap<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      if (this.#start < 0) {
        this.#start = performance.now();
        queueMicrotask(this.#close);
      }
      return fn(...args);
    };
  }
}

/** Pushes `n` requests at RATE per second, in the small bursts a busy event loop would see. */
async function feed(source: CaptureSource, sink: Sink, n: number): Promise<RunResult> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const cpu = process.cpuUsage();
  delay.enable();
  const started = performance.now();
  let sent = 0;
  while (sent < n) {
    const due = Math.min(n, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
    // At most 8 per tick: a loop serving requests interleaves them with timers and I/O.
    for (let burst = 0; sent < due && burst < 8; burst++, sent++) sink.push(source.next());
    await (sent < due ? new Promise((resolve) => setImmediate(resolve)) : sleep(1));
  }
  await sink.drain();
  delay.disable();
  const used = process.cpuUsage(cpu);
  return { cpuUs: used.user + used.system, maxPauseMs: delay.max / 1e6 };
}

/** A gateway without the audit: the request is dropped once served. */
const dropSink: Sink = {
  push() {},
  async drain() {},
};

function auditSink(dir: string, meter: StretchMeter): { sink: Sink; close: () => Promise<void> } {
  const store = openAuditStore(dir, quiet);
  store.insert = meter.wrap(store.insert.bind(store));
  const writer = new AuditWriter<CapturedEntry>({
    store,
    spill: new SpillFile(dir),
    // As plugins/audit/index.ts wires it.
    materialize: meter.wrap((c: CapturedEntry) => encodeRecord(recordOf(c, SERIALIZE))),
    release: releaseRecords,
    batchSize: BATCH_SIZE,
    flushIntervalMs: defaults.flush_interval_ms.default,
    maxQueue: defaults.max_queue.default,
    logger: quiet,
  });
  writer.start();
  return {
    sink: {
      push: (ctx) => writer.push(toEntry(ctx, CAPTURE)),
      async drain() {
        while (writer.queueLength > 0) await writer.flush();
      },
    },
    close: async () => {
      await writer.close();
      store.close();
    },
  };
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

async function measure(mix: CaptureMix): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-audit-write-'));
  try {
    const meter = new StretchMeter();
    const { sink, close } = auditSink(dir, meter);
    // JIT warmup of both paths, not measured.
    await feed(new CaptureSource(mix), dropSink, ENTRIES / 2);
    await feed(new CaptureSource(mix), sink, ENTRIES / 2);
    meter.longestMs = 0;
    const shares: number[] = [];
    let maxPause = 0;
    let baseMaxPause = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const base = await feed(new CaptureSource(mix), dropSink, ENTRIES);
      const audit = await feed(new CaptureSource(mix), sink, ENTRIES);
      shares.push((audit.cpuUs - base.cpuUs) / ENTRIES);
      maxPause = Math.max(maxPause, audit.maxPauseMs);
      baseMaxPause = Math.max(baseMaxPause, base.maxPauseMs);
    }
    await close();
    const stored = ENTRIES * ROUNDS + ENTRIES / 2;
    console.log(`  CPU per entry (all threads): ${median(shares).toFixed(1)} us median of ${ROUNDS} (${shares.map((s) => s.toFixed(1)).join(', ')})`);
    console.log(`  longest write step ${meter.longestMs.toFixed(2)} ms; longest event-loop pause ${maxPause.toFixed(2)} ms (${baseMaxPause.toFixed(2)} ms feeding the drop sink)`);
    console.log(`  ${(bytesUnder(dir) / stored).toFixed(0)} bytes on disk per entry`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`audit write benchmark: ${ENTRIES.toLocaleString('en-US')} entries a round at ${RATE}/s, batch_size ${BATCH_SIZE}, flush_interval_ms ${defaults.flush_interval_ms.default}`);
for (const [id, scenario] of Object.entries(SCENARIOS)) {
  if (values.scenario !== 'all' && values.scenario !== id) continue;
  console.log(scenario.title);
  await measure(scenario.mix);
}
