// The journal of the audit writer's worker: every entry it is handed is appended here at once,
// one JSON line each, before it waits for a batch. Once everything in it is stored it is
// truncated; when entries had to stay on disk only (queue full, store failing) it is renamed
// and replayed into the store, as is any journal a killed process left. Spill files of the store
// this one replaced (`audit-spill*.jsonl`, the same lines) are replayed the same way. Inserts
// skip ids the store has, so replaying a file twice is harmless.
import { closeSync, createReadStream, ftruncateSync, openSync, readdirSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AuditEntry } from '../audit-entry.js';

const CURRENT = 'audit-journal.jsonl';
const REPLAY = /^audit-journal-\d+-\d+\.replay\.jsonl$|^audit-spill(?:-\d+-\d+\.ingesting)?\.jsonl$/;

export class Journal {
  readonly path: string;
  readonly #dir: string;
  #fd: number | null = null;
  #renamed = 0;

  constructor(dir: string) {
    this.#dir = dir;
    this.path = join(dir, CURRENT);
  }

  /** Appends lines (no fsync: a killed process loses nothing written; see docs/audit.md for power loss). */
  append(lines: readonly string[]): void {
    // Bodies are in here, as in the database: owner-only.
    this.#fd ??= openSync(this.path, 'a', 0o600);
    writeSync(this.#fd, lines.join('\n') + '\n');
  }

  /** Empties it: everything it held is stored. */
  truncate(): void {
    if (this.#fd !== null) ftruncateSync(this.#fd, 0);
  }

  /** Moves what it holds aside to be replayed; the next append starts a new file. */
  setAside(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
    try {
      renameSync(this.path, join(this.#dir, `audit-journal-${Date.now()}-${this.#renamed++}.replay.jsonl`));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  /** Files waiting to be replayed, oldest first. */
  toReplay(): string[] {
    return readdirSync(this.#dir)
      .filter((f) => REPLAY.test(f))
      .sort()
      .map((f) => join(this.#dir, f));
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }
}

export interface ReadResult {
  /** Lines that were not whole entries (a write cut short by a crash). */
  skipped: number;
}

/** Feeds a journal's entries to `each` in batches. */
export async function readJournal(file: string, batchSize: number, each: (batch: AuditEntry[]) => Promise<void>): Promise<ReadResult> {
  const result: ReadResult = { skipped: 0 };
  let batch: AuditEntry[] = [];
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (line === '') continue;
    const entry = parseEntry(line);
    if (entry === null) result.skipped++;
    else batch.push(entry);
    if (batch.length >= batchSize) {
      await each(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await each(batch);
  return result;
}

/** An entry of a journal line, or null when it is not one the store could take. */
export function parseEntry(line: string): AuditEntry | null {
  let e: Partial<Record<keyof AuditEntry, unknown>>;
  try {
    e = JSON.parse(line) as typeof e;
  } catch {
    return null;
  }
  const valid =
    typeof e === 'object' &&
    e !== null &&
    typeof e.id === 'string' &&
    Number.isInteger(e.ts) &&
    Number.isInteger(e.status) &&
    typeof e.stream === 'boolean' &&
    typeof e.cache_hit === 'boolean' &&
    Number.isInteger(e.input_tokens) &&
    Number.isInteger(e.output_tokens) &&
    Number.isInteger(e.total_tokens) &&
    (e.cost_pico === null || Number.isInteger(e.cost_pico)) &&
    typeof e.labels === 'object' &&
    e.labels !== null;
  if (!valid) return null;
  // Spill files of the store before this one have no trace id, nor a connection wait per attempt.
  const attempts = Array.isArray(e.attempts) ? (e.attempts as AuditEntry['attempts']).map((a) => ({ ...a, queued_ms: a.queued_ms ?? 0 })) : [];
  return { trace_id: null, ...e, attempts } as AuditEntry;
}
