// The audit writer's worker thread. Entries arrive from the request loop once per turn; each is
// appended to the journal at once (so a killed process loses only what had not reached this
// thread yet), kept in memory, and stored in transactions sized to take a few milliseconds,
// yielding between them so new arrivals are journaled without waiting behind a batch.
//   - Beyond max_queue in memory, entries stay in the journal only ("spilled"); they are
//     replayed from it once the store has caught up.
//   - A failed write keeps its entries and is retried every retry_ms.
//   - close() stores what it can; whatever it cannot is in the journal for the next start.
import { unlinkSync } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import type { AuditEntry } from '../audit-entry.js';
import { openStore } from '../store/open-store.js';
import type { Store, StoreSpec } from '../store/store.js';
import { serveRequests } from '../worker-rpc.js';
import { Journal, parseEntry, readJournal } from './journal.js';
import type { PendingAnswer, WriterEvent } from './writer-messages.js';

export interface JournalWorkerData {
  spec: StoreSpec;
  dir: string;
  batchSize: number;
  flushIntervalMs: number;
  maxQueue: number;
  retryMs: number;
}

const o = workerData as JournalWorkerData;
const journal = new Journal(o.dir);
// A transaction's target length: a kill while one commits loses what arrived meanwhile.
const TARGET_MS = 3;
const WARN_EVERY_MS = 60_000;

let store: Store | null = null;
let pending: AuditEntry[] = [];
/** Journaled entries not in memory: the journal must be replayed, not truncated. */
let spilled = false;
/** Entries in memory only (the journal could not be written): it must not be truncated over them. */
let unjournaled = 0;
let failing = false;
let chunk = 100;
let timer: NodeJS.Timeout | null = null;
let draining: Promise<boolean> | null = null;
let replaying: Promise<void> | null = null;
const lastWarning = new Map<string, number>();

function emit(event: WriterEvent): void {
  parentPort!.postMessage(event);
}

function log(level: 'info' | 'warn' | 'error', kind: string, message: string): void {
  const now = Date.now();
  if (level !== 'info' && now - (lastWarning.get(kind) ?? -Infinity) < WARN_EVERY_MS) return;
  lastWarning.set(kind, now);
  emit({ log: level, message: `audit: ${message}` });
}

function status(delta: { spilled?: number; failedWrites?: number } = {}): void {
  emit({ queued: pending.length, spilled: delta.spilled ?? 0, failedWrites: delta.failedWrites ?? 0 });
}

function receive(lines: string[]): void {
  let journaled = true;
  try {
    journal.append(lines);
  } catch (err) {
    journaled = false;
    log('error', 'journal', `cannot append to ${journal.path}; ${lines.length} entries are kept in memory only: ${(err as Error).message}`);
  }
  let overflow = 0;
  for (const line of lines) {
    const entry = parseEntry(line);
    if (entry === null) continue;
    // Without the journal, memory is the last place left.
    if (pending.length < o.maxQueue || !journaled) {
      pending.push(entry);
      if (!journaled) unjournaled++;
    } else overflow++;
  }
  if (overflow > 0) {
    spilled = true;
    log('warn', 'spill', `queue at max_queue ${o.maxQueue}${failing ? ' and the store failing' : ''}: entries wait in ${journal.path} and are stored once the store catches up`);
  }
  status({ spilled: overflow });
  if (failing) return;
  if (pending.length >= o.batchSize) void drain();
  else timer ??= setTimeout(() => void drain(), o.flushIntervalMs);
}

/** Stores everything in memory; true when it did. One run at a time. */
function drain(): Promise<boolean> {
  draining ??= drainOnce().finally(() => {
    draining = null;
  });
  return draining;
}

async function drainOnce(): Promise<boolean> {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  while (pending.length > 0) {
    const batch = pending.slice(0, chunk);
    const started = performance.now();
    try {
      await store!.audit.insert(batch);
    } catch (err) {
      failing = true;
      log('error', 'write', `writing to the store failed; entries are kept and retried every ${o.retryMs} ms: ${(err as Error).message}`);
      status({ failedWrites: 1 });
      timer = setTimeout(() => void drain(), o.retryMs);
      return false;
    }
    pending.splice(0, batch.length);
    unjournaled = Math.max(0, unjournaled - batch.length);
    failing = false;
    chunk = Math.max(1, Math.min(o.batchSize, Math.floor((TARGET_MS * batch.length) / Math.max(performance.now() - started, 0.01))));
    status();
    await yieldToLoop();
  }
  // Nothing is waiting in memory: the journal holds only stored entries, unless some stayed there.
  if (spilled) {
    spilled = false;
    journal.setAside();
    void replay();
  } else if (unjournaled === 0) journal.truncate();
  return true;
}

/** Stores the journals set aside (by a previous run, or after a spill), one at a time. */
function replay(): Promise<void> {
  replaying ??= (async () => {
    try {
      for (const file of journal.toReplay()) {
        const { skipped } = await readJournal(file, o.batchSize, async (batch) => {
          await store!.audit.insert(batch);
          await yieldToLoop();
        });
        if (skipped > 0) log('warn', 'skipped', `skipped ${skipped} unreadable lines of ${file} (a write cut short)`);
        unlinkSync(file);
      }
    } catch (err) {
      spilled = true;
      log('error', 'replay', `replaying the journal failed; it is kept and tried again after the next write: ${(err as Error).message}`);
    }
  })().finally(() => {
    replaying = null;
  });
  return replaying;
}

function pendingEntry(id: string): PendingAnswer {
  const entry = pending.find((e) => e.id === id) ?? null;
  return { entry, failing, complete: !spilled && replaying === null };
}

serveRequests(
  async (method, args) => {
    switch (method) {
      case 'open':
        store = await openStore(o.spec);
        // What a killed process left is replayed now, in the background.
        journal.setAside();
        void replay();
        return store.schemaVersion;
      case 'flush': {
        const stored = await drain();
        await replaying;
        return stored && !failing;
      }
      case 'pending':
        return pendingEntry(args[0] as string);
      case 'purgeBefore':
        return store!.audit.purgeBefore(args[0] as number);
      case 'close': {
        if (timer !== null) clearTimeout(timer);
        await draining;
        await replaying;
        // One more try even if the store was failing; what it refuses waits in the journal.
        const stored = await drainOnce();
        if (timer !== null) clearTimeout(timer);
        if (!stored) log('warn', 'close', `${pending.length} entries are not stored; they wait in ${journal.path} for the next start`);
        const lost = unjournaled;
        journal.close();
        await store?.close();
        return lost;
      }
      default:
        throw new Error(`unknown call ${method}`);
    }
  },
  (message) => receive((message as { entries: string[] }).entries),
);
