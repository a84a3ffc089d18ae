import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditEntry } from './entry.js';
import { spilledTotal } from './metrics.js';
import { SpillFile } from './spill.js';
import type { StorableEntry } from './entry-record.js';
import type { AuditPage, AuditStore, InsertOptions, UsageRow } from './store.js';
import { syntheticEntry } from './synthetic-entry.js';
import { AuditWriter } from './writer.js';

/**
 * A store in memory that can be told to fail, and records the size of every batch. Like the
 * SQLite store, it stores an id again unless told the entries may be stored (`stored` counts
 * every row, `rows` holds one per id).
 */
class MemoryStore implements AuditStore {
  readonly rows = new Map<string, AuditEntry>();
  readonly batches: number[] = [];
  stored = 0;
  failing = false;

  insert(entries: readonly AuditEntry[], options: InsertOptions = {}): void {
    if (this.failing) throw new Error('SQLITE_FULL: database or disk is full');
    this.batches.push(entries.length);
    for (const e of entries) {
      if (options.mayBeStored === true && this.rows.has(e.id)) continue;
      this.rows.set(e.id, e);
      this.stored++;
    }
  }
  get(id: string): AuditEntry | null {
    return this.rows.get(id) ?? null;
  }
  query(): AuditPage {
    return { data: [], next_cursor: null };
  }
  usage(): UsageRow[] {
    return [];
  }
  purgeBefore(): number {
    return 0;
  }
  close(): void {}
}

interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
}

function memoryLogger(lines: LogLine[]) {
  return {
    info: (message: string) => void lines.push({ level: 'info', message }),
    warn: (message: string) => void lines.push({ level: 'warn', message }),
    error: (message: string) => void lines.push({ level: 'error', message }),
  } as unknown as ConstructorParameters<typeof AuditWriter<AuditEntry>>[0]['logger'];
}

const entry = (i: number): AuditEntry => syntheticEntry({ id: `w${i}`, ts: 1_741_564_800_000 + i });

async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

function spilledCount(): Promise<number> {
  return spilledTotal.get().then((m) => m.values[0]?.value ?? 0);
}

describe('audit writer', () => {
  let dir: string;
  let store: MemoryStore;
  let logs: LogLine[];
  let materialized: number;
  let released: string[];
  let writer: AuditWriter<AuditEntry>;

  function makeWriter(options: { batchSize?: number; flushIntervalMs?: number; maxQueue?: number; retryMs?: number } = {}): AuditWriter<AuditEntry> {
    writer = new AuditWriter<AuditEntry>({
      store,
      spill: new SpillFile(dir),
      materialize: (e) => {
        materialized++;
        return e;
      },
      release: (entries) => {
        for (const e of entries) released.push(e.id);
      },
      batchSize: options.batchSize ?? 500,
      flushIntervalMs: options.flushIntervalMs ?? 100,
      maxQueue: options.maxQueue ?? 50_000,
      retryMs: options.retryMs ?? 1000,
      logger: memoryLogger(logs),
    });
    return writer;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-audit-writer-'));
    store = new MemoryStore();
    logs = [];
    materialized = 0;
    released = [];
  });
  afterEach(async () => {
    store.failing = false;
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('push does no work: no serialisation, no write, until the timer fires', async () => {
    makeWriter({ flushIntervalMs: 30 });
    for (let i = 0; i < 3; i++) writer.push(entry(i));
    expect(materialized).to.equal(0);
    expect(store.batches).to.deep.equal([]);
    expect(writer.queueLength).to.equal(3);
    await until(() => store.rows.size === 3);
    expect(store.batches).to.deep.equal([3]);
    expect(materialized).to.equal(3);
    expect(writer.queueLength).to.equal(0);
  });

  it('writes full batches without waiting for the timer, one transaction each', async () => {
    makeWriter({ batchSize: 500, flushIntervalMs: 60_000 });
    for (let i = 0; i < 1200; i++) writer.push(entry(i));
    expect(store.batches).to.deep.equal([]);
    await until(() => store.rows.size === 1200);
    expect(store.batches).to.deep.equal([500, 500, 200]);
  });

  it('close writes everything still queued before it resolves', async () => {
    makeWriter({ flushIntervalMs: 60_000 });
    for (let i = 0; i < 10; i++) writer.push(entry(i));
    await writer.close();
    expect(store.rows.size).to.equal(10);
    expect(existsSync(join(dir, 'audit-spill.jsonl'))).to.equal(false);
  });

  it('spills beyond max_queue to the JSONL file, counts it, warns once, and re-ingests after the next write', async () => {
    makeWriter({ maxQueue: 5, flushIntervalMs: 60_000 });
    const before = await spilledCount();
    for (let i = 0; i < 8; i++) writer.push(entry(i));
    expect(writer.queueLength).to.equal(8);
    await until(() => existsSync(join(dir, 'audit-spill.jsonl')) && readFileSync(join(dir, 'audit-spill.jsonl'), 'utf8').split('\n').length === 4);
    const lines = readFileSync(join(dir, 'audit-spill.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as AuditEntry).id)).to.deep.equal(['w5', 'w6', 'w7']);
    expect(JSON.parse(lines[0]!)).to.deep.equal(entry(5));
    expect((await spilledCount()) - before).to.equal(3);
    // A second overflow within the minute does not warn again.
    writer.push(entry(8));
    await until(() => readFileSync(join(dir, 'audit-spill.jsonl'), 'utf8').trim().split('\n').length === 4);
    expect(logs.filter((l) => l.level === 'warn')).to.have.length(1);
    expect(logs[0]!.message).to.match(/3 entries spilled to .*audit-spill\.jsonl/);

    expect(await writer.flush()).to.equal(true);
    await until(() => store.rows.size === 9);
    await until(() => readdirSync(dir).length === 0);
    expect([...store.rows.keys()].sort()).to.deep.equal(['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8']);
  });

  it('re-ingests a previous run’s spill file at start, skipping a line cut short by a crash', async () => {
    writeFileSync(join(dir, 'audit-spill.jsonl'), `${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n{"id":"w3","ts":17415`);
    makeWriter();
    writer.start();
    await until(() => store.rows.size === 2 && readdirSync(dir).length === 0);
    expect([...store.rows.keys()]).to.deep.equal(['w1', 'w2']);
    expect(logs.map((l) => l.message)).to.deep.equal(['audit: re-ingested 2 spilled entries', 'audit: skipped 1 unreadable lines of the spill file (a write cut short)']);
  });

  it('a failing store keeps the entries and retries until it succeeds', async () => {
    makeWriter({ retryMs: 20, flushIntervalMs: 60_000 });
    store.failing = true;
    for (let i = 0; i < 3; i++) writer.push(entry(i));
    expect(await writer.flush()).to.equal(false);
    expect(writer.queueLength).to.equal(3);
    expect(logs.filter((l) => l.level === 'error')).to.have.length(1);
    // More arrive while it is down; they queue behind the failed ones.
    writer.push(entry(3));
    await sleep(60);
    expect(store.rows.size).to.equal(0);
    // Kept for the retry: not released.
    expect(released).to.deep.equal([]);
    store.failing = false;
    await until(() => store.rows.size === 4);
    expect([...store.rows.keys()]).to.deep.equal(['w0', 'w1', 'w2', 'w3']);
    expect(writer.queueLength).to.equal(0);
    // Released once each, once stored.
    expect(released).to.deep.equal(['w0', 'w1', 'w2', 'w3']);
  });

  it('stores each entry once when a spill append fails after writing part of it', async () => {
    // The disk fills up mid-append: two of the four lines reach the file, the ingest queued
    // behind the append stores them, and the writer keeps all four in memory.
    class DiskFillsUp extends SpillFile {
      failNext = false;
      override append(entries: readonly StorableEntry[]): Promise<void> {
        if (!this.failNext) return super.append(entries);
        this.failNext = false;
        return super.append(entries.slice(0, 2)).then(() => {
          throw new Error('ENOSPC: no space left on device, write');
        });
      }
    }
    const spill = new DiskFillsUp(dir);
    // An earlier spill: the file is there to ingest after the next write.
    await spill.append([entry(100)]);
    writer = new AuditWriter<AuditEntry>({ store, spill, materialize: (e) => e, batchSize: 100, flushIntervalMs: 60_000, maxQueue: 2, logger: memoryLogger(logs) });
    for (let i = 0; i < 6; i++) writer.push(entry(i));
    spill.failNext = true;
    await sleep(0);
    await writer.flush();
    await spill.idle();
    await writer.flush();
    expect([...store.rows.keys()].sort()).to.deep.equal(['w0', 'w1', 'w100', 'w2', 'w3', 'w4', 'w5']);
    expect(store.stored).to.equal(7);
  });

  it('a failing store spills what exceeds max_queue, and close spills the rest: nothing is lost', async () => {
    makeWriter({ maxQueue: 4, retryMs: 60_000, flushIntervalMs: 60_000 });
    store.failing = true;
    for (let i = 0; i < 4; i++) writer.push(entry(i));
    expect(await writer.flush()).to.equal(false);
    for (let i = 4; i < 6; i++) writer.push(entry(i));
    await writer.close();
    const spilled = readFileSync(join(dir, 'audit-spill.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as AuditEntry).id);
    expect(spilled.sort()).to.deep.equal(['w0', 'w1', 'w2', 'w3', 'w4', 'w5']);
    expect(store.rows.size).to.equal(0);
    // Released once each, once in the spill file.
    expect(released.sort()).to.deep.equal(['w0', 'w1', 'w2', 'w3', 'w4', 'w5']);

    // The next run finds them.
    store.failing = false;
    makeWriter();
    writer.start();
    await until(() => store.rows.size === 6 && readdirSync(dir).length === 0);
  });
});
