// The overflow of the audit queue: an append-only JSONL file in the data directory. Entries go
// there when memory is full or the store fails, and come back into the store later (the writer
// asks the store to skip ids it already has, so a half-finished ingest is simply run again). Appends and
// ingests run one at a time, in call order, so an ingest never races an append to the file.
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { appendFile, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AuditEntry } from './entry.js';
import { entryOf, isEncoded, isRecord } from './entry-record.js';
import { decodeRecord } from './segment-record.js';
import type { StorableEntry } from './entry-record.js';

const SPILL_NAME = 'audit-spill.jsonl';
// An ingest renames the file first, so new spills start a fresh file meanwhile; a crash mid-
// ingest leaves the renamed file for the next run.
const INGESTING = /^audit-spill-(\d+)-(\d+)\.ingesting\.jsonl$/;

export interface IngestResult {
  ingested: number;
  /** Lines that were not JSON entries (a write cut short by a crash). */
  skipped: number;
}

export class SpillFile {
  readonly dir: string;
  readonly path: string;
  #lane: Promise<unknown> = Promise.resolve();
  #pending: boolean;
  #sequence = 0;

  constructor(dir: string) {
    this.dir = dir;
    this.path = join(dir, SPILL_NAME);
    // Sync on purpose: this runs once, at boot.
    this.#pending = existsSync(this.path) || readdirSync(dir).some((f) => INGESTING.test(f));
  }

  /** Whether spilled entries may be waiting on disk. */
  get pending(): boolean {
    return this.#pending;
  }

  append(entries: readonly StorableEntry[]): Promise<void> {
    return this.#enqueue(async () => {
      let text = '';
      // Whole entries, as a store gives them back: the file stays readable and version-proof.
      for (const e of entries) text += JSON.stringify(isEncoded(e) ? decodeRecord(e) : isRecord(e) ? entryOf(e) : e) + '\n';
      // Bodies are in here, as in the database: owner-only.
      await appendFile(this.path, text, { mode: 0o600 });
      this.#pending = true;
    });
  }

  /** Feeds every spilled entry to `insert` in batches, then deletes the files it emptied. */
  ingest(insert: (batch: AuditEntry[]) => void | Promise<void>, batchSize: number): Promise<IngestResult> {
    return this.#enqueue(async () => {
      const result: IngestResult = { ingested: 0, skipped: 0 };
      if (existsSync(this.path)) {
        await rename(this.path, join(this.dir, `audit-spill-${Date.now()}-${this.#sequence++}.ingesting.jsonl`));
      }
      const files = (await readdir(this.dir)).filter((f) => INGESTING.test(f)).sort(byTimeThenSequence);
      for (const name of files) {
        const file = join(this.dir, name);
        await ingestFile(file, insert, batchSize, result);
        await unlink(file);
      }
      this.#pending = false;
      return result;
    });
  }

  /** Resolves when every append and ingest asked for so far has finished (or failed). */
  async idle(): Promise<void> {
    for (;;) {
      const lane = this.#lane;
      await lane.catch(() => undefined);
      if (lane === this.#lane) return;
    }
  }

  #enqueue<T>(job: () => Promise<T>): Promise<T> {
    const run = this.#lane.then(job, job);
    this.#lane = run.catch(() => undefined);
    return run;
  }
}

async function ingestFile(file: string, insert: (batch: AuditEntry[]) => void | Promise<void>, batchSize: number, result: IngestResult): Promise<void> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let batch: AuditEntry[] = [];
  for await (const line of lines) {
    const entry = parseLine(line);
    if (entry === null) {
      if (line !== '') result.skipped++;
      continue;
    }
    batch.push(entry);
    if (batch.length >= batchSize) {
      await insert(batch);
      result.ingested += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) {
    await insert(batch);
    result.ingested += batch.length;
  }
}

function parseLine(line: string): AuditEntry | null {
  if (line === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  return isStorable(value) ? value : null;
}

/** What the store needs present and typed; anything less would fail its batch on every retry. */
function isStorable(value: unknown): value is AuditEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Partial<Record<keyof AuditEntry, unknown>>;
  return (
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
    e.labels !== null
  );
}

function byTimeThenSequence(a: string, b: string): number {
  const [, at = '0', as = '0'] = INGESTING.exec(a) ?? [];
  const [, bt = '0', bs = '0'] = INGESTING.exec(b) ?? [];
  return Number(at) - Number(bt) || Number(as) - Number(bs);
}
