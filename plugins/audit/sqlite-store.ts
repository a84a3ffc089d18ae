// The audit store on better-sqlite3: `<dataDir>/sluice.db` (WAL) holds one narrow row per entry
// (what lists filter and usage sums read), the labels and the hourly rollups; everything else
// (summary fields, headers, bodies, usage, cost breakdown, attempts) is appended to segment
// files in `<dataDir>/audit/`, one per UTC day (segment-files.ts, segment-record.ts). A batch
// costs one write to its day's file and one transaction, the write first: a row never points
// at bytes that were not written. better-sqlite3 is synchronous, so the writer calls insert()
// off the request path in small batches, and purges run in chunks that yield to the event loop.
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { BodySearch } from './body-search.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { AuditEntry, AuditSummary } from './entry.js';
import { asRecord, entryFromRecord, isEncoded, summaryFromRecord } from './entry-record.js';
import type { EncodedRecord, RecordColumns, RecordDetail, StorableEntry } from './entry-record.js';
import { carriesTs, idTime } from './entry-id.js';
import { EntrySequence, N_OF_SEQ, SEQ_OF, TS_OF_SEQ } from './entry-sequence.js';
import type { SeqPosition } from './entry-sequence.js';
import { ALL_DIM, forEachLabelValue, HOUR_MS, hourOf, labelledDim, modelValue } from './rollup.js';
import { DAY_MS, dayOf, SegmentFiles } from './segment-files.js';
import { encodeRecord, entryOfBytes, readHead, releaseRecords, SegmentBatch } from './segment-record.js';
import type { RecordHead } from './segment-record.js';
import { PAGE_COLUMNS, PageRows } from './sqlite-page-rows.js';
import { HourlyRollups, insertRollups } from './sqlite-rollups.js';
import type { InsertRollups } from './sqlite-rollups.js';
import type { PageRow } from './sqlite-page-rows.js';
import { BACKSTOP_PAGES, Checkpointer, DEFAULT_PAGES } from './sqlite-checkpointer.js';
import { migrate } from './sqlite-schema.js';
import { moveV1Rows } from './sqlite-v1-rows.js';
import type { AuditFilter, AuditPage, AuditStore, InsertOptions, UsageGroupBy, UsageRow } from './store.js';
import { splitWindow, UsageSum } from './usage-window.js';
import type { UsageWindow } from './usage-window.js';

/** One row of a usage sum, read with safe integers so money sums stay exact. */
interface SumRow {
  value: string | null;
  requests: bigint;
  input_tokens: bigint;
  output_tokens: bigint;
  total_tokens: bigint;
  cost_pico: bigint;
  unpriced_requests: bigint;
}

interface LabelledRow {
  labels: string;
  provider: string | null;
  input_tokens: bigint;
  output_tokens: bigint;
  total_tokens: bigint;
  cost_pico: bigint | null;
}

export interface SqliteStoreOptions {
  /** ms a statement waits for another connection's lock (other plugins share the file). */
  busyTimeoutMs?: number;
  /** Where the segment files go; `audit/` beside the database by default. */
  segmentsDir?: string;
  /**
   * WAL checkpoints in a worker thread (sqlite-checkpointer.ts), off the event loop; otherwise
   * SQLite runs them inside the commit that crosses its mark. The gateway uses the worker.
   */
  checkpointWorker?: boolean;
  /** Told what goes wrong in the background (a failed checkpoint). */
  onBackgroundError?: (message: string) => void;
}

const PURGE_CHUNK = 1000;
// Rows scanned per query while searching bodies: one SQL call per this many.
const SEARCH_BATCH = 1000;
// A record's head is read with this many bytes first; longer heads take a second read.
const HEAD_READ = 4096;
// Rows per INSERT statement. Each call into better-sqlite3 and each statement run costs about
// as much as binding a whole row; one statement for up to this many rows pays it once. Beyond
// it, the gain is lost in the noise (and a statement's variables are bounded).
const ROWS_PER_INSERT = 32;
const INSERT_COLUMNS = 15;
const INSERT_INTO = `INSERT INTO audit_entries
  (seq, id, ts, model, provider, key_id, status, input_tokens, output_tokens, total_tokens, cost_pico, labels, off, len) VALUES`;
const INSERT_ROW = `(${SEQ_OF}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const SUMS = `COUNT(*) AS requests, COALESCE(SUM(e.input_tokens), 0) AS input_tokens, COALESCE(SUM(e.output_tokens), 0) AS output_tokens,
  COALESCE(SUM(e.total_tokens), 0) AS total_tokens, COALESCE(SUM(e.cost_pico), 0) AS cost_pico,
  COALESCE(SUM(e.cost_pico IS NULL AND e.provider IS NOT NULL), 0) AS unpriced_requests`;

// The raw-row expression each grouping uses; it must give the same value as rollup.ts does.
const RAW_VALUE: Record<'key' | 'model' | 'provider', string> = {
  key: `COALESCE(e.key_id, '')`,
  model: `COALESCE(e.model, '')`,
  provider: `COALESCE(e.provider, '')`,
};

// Raw rows of [from, to) (ms): a rowid range.
const IN_WINDOW = `e.seq >= ${SEQ_OF} AND e.seq < ${SEQ_OF}`;

/** What a row lost its detail to (a segment cut short by a power cut) is listed with. */
const LOST_DETAIL: RecordDetail = Object.freeze({
  duration_ms: null,
  ttfb_ms: null,
  method: '',
  route: '',
  operation: null,
  model: null,
  resolved_model: null,
  provider_model: null,
  key_name: null,
  client_ip: null,
  stream: false,
  cache_hit: false,
  cost_usd: null,
  cost_source: null,
  error: null,
  request_headers: {},
  request_body_truncated: false,
  response_body_truncated: false,
  usage: null,
  cost: null,
  attempts: [],
});

export class SqliteAuditStore implements AuditStore {
  readonly file: string;
  readonly #db: Database.Database;
  readonly #files: SegmentFiles;
  readonly #sequence: EntrySequence;
  readonly #pageRows: PageRows;
  readonly #rollups: HourlyRollups;
  /** INSERT statements by number of rows (1 to ROWS_PER_INSERT), prepared on first use. */
  readonly #inserts: Statement[] = [];
  readonly #listedId: Statement;
  readonly #listId: Statement;
  readonly #entryInMs: Statement;
  readonly #entryAt: Statement;
  readonly #purgeIds: Statement;
  readonly #rollupByValue: Statement;
  readonly #rawByValue: Record<'key' | 'model' | 'provider', Statement>;
  readonly #rawAll: Statement;
  readonly #rawLabelled: Statement;
  readonly #purgeEntries: Statement;
  readonly #rowsOfDay: Statement;
  readonly #insertBatch: (records: readonly EncodedRecord[], at: readonly number[], sizes: readonly number[], rollups: InsertRollups | null, also: (() => void) | null) => void;
  /** Per day of the batch being written: its records' bytes, for one write each. */
  readonly #segments = new Map<number, SegmentBatch>();
  readonly #head = Buffer.allocUnsafe(HEAD_READ);
  #checkpointer: Checkpointer | null = null;
  #closed = false;
  #gone: Promise<void> = Promise.resolve();

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.file = file;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    const db = new Database(file, { timeout: busyTimeoutMs });
    this.#db = db;
    try {
      // Labels and ids are in here: readable by the gateway's user only (WAL files inherit it).
      if (file !== ':memory:') chmodSync(file, 0o600);
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a power cut may lose the last transactions, never corrupt the file.
      db.pragma('synchronous = NORMAL');
      db.pragma('cache_size = -32000');
      if (options.checkpointWorker === true) db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
      migrate(db);
      // Keeps the planner's statistics fresh on a long-lived connection, cheaply.
      db.pragma('analysis_limit = 1000');
      db.pragma('optimize = 0x10002');
      this.#files = new SegmentFiles(options.segmentsDir ?? join(dirname(file), 'audit'));
    } catch (err) {
      db.close();
      throw err;
    }

    // An entry by id (entry-id.ts): among the rows of the millisecond its id carries, else by
    // the position audit_ids lists for it.
    this.#entryInMs = db.prepare(`SELECT ${PAGE_COLUMNS} FROM audit_entries WHERE seq >= ${SEQ_OF} AND seq < ${SEQ_OF} AND id = ?`);
    // A listed position is checked against the row's id: a purge that stopped between its
    // chunks leaves listed ids whose rows are gone, and their positions may be taken again.
    this.#listedId = db.prepare('SELECT seq FROM audit_ids WHERE id = ?').pluck().safeIntegers(true);
    this.#listId = db.prepare(`INSERT INTO audit_ids (id, seq) VALUES (?, ${SEQ_OF}) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq`);
    this.#entryAt = db.prepare(`SELECT ${PAGE_COLUMNS} FROM audit_entries WHERE seq = ? AND id = ?`);
    this.#purgeIds = db.prepare(`DELETE FROM audit_ids WHERE seq < ${SEQ_OF}`);
    this.#rollupByValue = db
      .prepare(`SELECT value, SUM(requests) AS requests, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
        SUM(total_tokens) AS total_tokens, SUM(cost_pico) AS cost_pico, SUM(unpriced_requests) AS unpriced_requests
        FROM usage_rollup WHERE dim = ? AND bucket_hour >= ? AND bucket_hour < ? GROUP BY value`)
      .safeIntegers(true);
    const raw = (value: string): Statement => db.prepare(`SELECT ${value} AS value, ${SUMS} FROM audit_entries e WHERE ${IN_WINDOW} GROUP BY 1`).safeIntegers(true);
    this.#rawByValue = { key: raw(RAW_VALUE.key), model: raw(RAW_VALUE.model), provider: raw(RAW_VALUE.provider) };
    this.#rawAll = db.prepare(`SELECT '' AS value, ${SUMS} FROM audit_entries e WHERE ${IN_WINDOW}`).safeIntegers(true);
    this.#rawLabelled = db
      .prepare(`SELECT labels, provider, input_tokens, output_tokens, total_tokens, cost_pico FROM audit_entries e WHERE ${IN_WINDOW} AND labels IS NOT NULL`)
      .safeIntegers(true);
    // The oldest chunk first: each holds the write lock for about a millisecond.
    this.#purgeEntries = db.prepare(`DELETE FROM audit_entries WHERE seq IN (SELECT seq FROM audit_entries WHERE seq < ${SEQ_OF} ORDER BY seq LIMIT ${PURGE_CHUNK})`);
    this.#rowsOfDay = db.prepare(`SELECT 1 FROM audit_entries WHERE seq >= ${SEQ_OF} AND seq < ${SEQ_OF} LIMIT 1`).pluck();
    this.#rollups = new HourlyRollups(db);
    this.#pageRows = new PageRows(db, this.#rollups);

    const last = db.prepare(`SELECT ${TS_OF_SEQ} AS ts, ${N_OF_SEQ} AS n FROM audit_entries ORDER BY seq DESC LIMIT 1`).get() as SeqPosition | undefined;
    const highestN = db.prepare(`SELECT MAX(seq) - ${SEQ_OF} FROM audit_entries WHERE seq >= ${SEQ_OF} AND seq < ${SEQ_OF}`).pluck();
    this.#sequence = new EntrySequence(last ?? null, (ts) => highestN.get(ts, 0, ts, 0, ts + 1, 0) as number | null);
    this.#insertBatch = db.transaction((records: readonly EncodedRecord[], at: readonly number[], sizes: readonly number[], rollups: InsertRollups | null, also: (() => void) | null) => {
      try {
        this.#insertRows(records, at, sizes, rollups);
        also?.();
      } finally {
        this.#sequence.endBatch();
      }
    });
    try {
      // Version 1 counted its entries in the rollups already.
      moveV1Rows(db, (records, also) => this.#writeOwn(records, null, also));
    } catch (err) {
      this.close();
      throw err;
    }
    if (options.checkpointWorker === true) this.#startCheckpointer(busyTimeoutMs, options.onBackgroundError ?? (() => undefined));
  }

  insert(entries: readonly StorableEntry[], options: InsertOptions = {}): void {
    this.#open();
    const fresh = options.mayBeStored === true ? this.#notStored(entries) : entries;
    if (fresh.length === 0) return;
    const rollups = insertRollups();
    this.#writeOwn(fresh, rollups, null);
    this.#rollups.committed(rollups);
  }

  /** Writes entries, encoding those that are not yet; the records it encoded are its own to release. */
  #writeOwn(entries: readonly StorableEntry[], rollups: InsertRollups | null, also: (() => void) | null): void {
    const own: EncodedRecord[] = [];
    const records = entries.map((e) => {
      if (isEncoded(e)) return e;
      const r = encodeRecord(asRecord(e));
      own.push(r);
      return r;
    });
    try {
      this.#write(records, rollups, also);
    } finally {
      releaseRecords(own);
    }
  }

  /** The entries not stored yet, each id once. */
  #notStored(entries: readonly StorableEntry[]): StorableEntry[] {
    const seen = new Set<string>();
    return entries.filter((e) => {
      if (seen.has(e.id)) return false;
      seen.add(e.id);
      return this.#rowOf(e.id) === undefined;
    });
  }

  get(id: string): AuditEntry | null {
    this.#open();
    const row = this.#rowOf(id);
    if (row === undefined) return null;
    const bytes = Buffer.allocUnsafe(row.len);
    const read = this.#files.read(dayOf(row.ts), row.off, row.len, bytes);
    const head = readHead(bytes, 0, read);
    const columns = columnsOf(row);
    if (head === null || head.id !== row.id) return entryFromRecord(columns, LOST_DETAIL, null, null);
    return entryOfBytes(columns, head, bytes, read);
  }

  #rowOf(id: string): PageRow | undefined {
    const t = idTime(id);
    const row = t === null ? undefined : (this.#entryInMs.get(t, 0, t + 1, 0, id) as PageRow | undefined);
    if (row !== undefined) return row;
    return this.#listedRow(id);
  }

  #listedRow(id: string): PageRow | undefined {
    const seq = this.#listedId.get(id) as bigint | undefined;
    return seq === undefined ? undefined : (this.#entryAt.get(seq, id) as PageRow | undefined);
  }

  query(filter: AuditFilter, cursor: string | null, limit: number): AuditPage {
    this.#open();
    const before = cursor === null ? null : decodeCursor(cursor);
    // One row more than asked says whether another page exists.
    const wanted = limit + 1;
    const rows = filter.q === undefined ? this.#pageRowsOf(filter, before, wanted) : this.#searchRows(filter, filter.q, before, wanted);
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    return {
      data: rows.map((row) => this.#summary(row)),
      next_cursor: more && last !== undefined ? encodeCursor({ ts: last.ts, n: last.n }) : null,
    };
  }

  #pageRowsOf(filter: AuditFilter, before: SeqPosition | null, wanted: number): PageRow[] {
    const rows: PageRow[] = [];
    for (const batch of this.#pageRows.rows(filter, before, wanted)) {
      for (const row of batch) {
        rows.push(row);
        if (rows.length === wanted) return rows;
      }
    }
    return rows;
  }

  /** The newest rows whose bodies hold q: scanned by position, read whole once they match. */
  #searchRows(filter: AuditFilter, q: string, before: SeqPosition | null, wanted: number): PageRow[] {
    const search = new BodySearch(q, this.#files);
    const rows: PageRow[] = [];
    for (const batch of this.#pageRows.located(filter, before, SEARCH_BATCH)) {
      for (const at of batch) {
        if (!search.matches(dayOf(at.ts), at.off, at.len)) continue;
        rows.push(this.#pageRows.row(at));
        if (rows.length === wanted) return rows;
      }
    }
    return rows;
  }

  usage(groupBy: UsageGroupBy, from: number, to: number): UsageRow[] {
    this.#open();
    const window = splitWindow(from, to, this.#rollups.until);
    const sum = new UsageSum();
    const label = groupBy.startsWith('label:') ? groupBy.slice('label:'.length) : null;
    if (label === '' || (label === null && !Object.hasOwn(RAW_VALUE, groupBy))) throw new Error(`cannot group usage by '${groupBy}'`);
    this.#addRolledUp(sum, groupBy, window);
    if (label === null) {
      const statement = this.#rawByValue[groupBy as 'key' | 'model' | 'provider'];
      for (const [start, end] of window.raw) addRows(sum, statement.all(start, 0, end, 0) as SumRow[]);
      return sum.sorted();
    }
    // Calls without the label: the window's totals minus the entries carrying it.
    const all = this.#rolledUp(ALL_DIM, window);
    const labelled = this.#rolledUp(labelledDim(label), window);
    for (const [start, end] of window.raw) {
      addRows(all, this.#rawAll.all(start, 0, end, 0) as SumRow[]);
      this.#addLabelled(sum, labelled, label, start, end);
    }
    sum.addDifference(all.total(), labelled.total());
    return sum.sorted();
  }

  /** Writes the rollup sums kept in memory, and rebuilds what a crash left (sqlite-rollups.ts). */
  maintain(): Promise<void> {
    this.#open();
    return this.#rollups.maintain();
  }

  async purgeBefore(ts: number): Promise<number> {
    // Raw rows go only once their hours are complete in the table: rollups are all that is left.
    await this.#rollups.maintain();
    const cutoff = Math.min(ts, this.#rollups.until);
    let deleted = 0;
    for (;;) {
      if (this.#closed) return deleted;
      const n = this.#purgeEntries.run(cutoff, 0).changes;
      deleted += n;
      if (n < PURGE_CHUNK) break;
      // Each chunk holds the write lock for about a millisecond; requests run in between.
      await yieldToLoop();
    }
    if (this.#closed) return deleted;
    this.#purgeIds.run(cutoff, 0);
    this.#rollups.purged(cutoff, this.#db);
    // Whole days before the cutoff: their rows are gone, so are their files. A row written for
    // such a day since (a late spill) keeps its file until the next purge.
    for (const day of this.#files.days()) {
      const end = (day + 1) * DAY_MS;
      if (end > cutoff) break;
      if (this.#rowsOfDay.get(day * DAY_MS, 0, end, 0) === undefined) this.#files.delete(day);
    }
    // Hourly upkeep: refreshes the planner's statistics when the tables changed enough.
    if (deleted > 0) this.#db.pragma('optimize');
    return deleted;
  }

  /** Resolves once the checkpoint thread has closed its connection too (it may remove the WAL file). */
  close(): Promise<void> {
    if (this.#closed) return this.#gone;
    this.#closed = true;
    this.#rollups.close();
    if (this.#checkpointer !== null) this.#gone = this.#checkpointer.close();
    try {
      this.#files.close();
      this.#db.pragma('optimize');
    } finally {
      this.#db.close();
    }
    return this.#gone;
  }

  #startCheckpointer(busyTimeoutMs: number, report: (message: string) => void): void {
    const inline = (message: string): void => {
      this.#checkpointer = null;
      if (!this.#closed) this.#db.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
      report(`${message}; checkpoints run inline again`);
    };
    try {
      this.#checkpointer = new Checkpointer(this.file, busyTimeoutMs, { onError: report, onGone: inline });
    } catch (err) {
      inline(`cannot start the checkpoint thread: ${(err as Error).message}`);
    }
  }

  /** The batch's bytes to its day's segment (one write per day), then its rows in one transaction. */
  #write(records: readonly EncodedRecord[], rollups: InsertRollups | null, also: (() => void) | null): void {
    const segments = this.#segments;
    for (const segment of segments.values()) segment.reset();
    const at: number[] = new Array<number>(records.length);
    const sizes: number[] = new Array<number>(records.length);
    for (let i = 0; i < records.length; i++) {
      const day = dayOf(records[i]!.ts);
      let segment = segments.get(day);
      if (segment === undefined) segments.set(day, (segment = new SegmentBatch()));
      const start = segment.add(records[i]!);
      at[i] = start;
      sizes[i] = segment.length - start;
    }
    for (const [day, segment] of segments) {
      // Only the days of the latest batch keep a buffer.
      if (segment.length === 0) segments.delete(day);
      else segment.fileOffset = this.#files.append(day, segment.takeChunks());
    }
    this.#insertBatch(records, at, sizes, rollups, also);
  }

  #insertRows(records: readonly EncodedRecord[], at: readonly number[], sizes: readonly number[], rollups: InsertRollups | null): void {
    const segments = this.#segments;
    const sequence = this.#sequence;
    const ns: number[] = new Array<number>(ROWS_PER_INSERT);
    for (let first = 0; first < records.length; first += ROWS_PER_INSERT) {
      const rows = Math.min(ROWS_PER_INSERT, records.length - first);
      const params: unknown[] = new Array<unknown>(rows * INSERT_COLUMNS);
      let p = 0;
      for (let i = first; i < first + rows; i++) {
        const r = records[i]!;
        const n = sequence.next(r.ts);
        ns[i - first] = n;
        params[p++] = r.ts;
        params[p++] = n;
        params[p++] = r.id;
        params[p++] = r.ts;
        params[p++] = modelValue(r) || null;
        params[p++] = r.provider;
        params[p++] = r.key_id;
        params[p++] = r.status;
        params[p++] = r.input_tokens;
        params[p++] = r.output_tokens;
        params[p++] = r.total_tokens;
        params[p++] = r.cost_pico;
        params[p++] = labelsText(r.labels);
        params[p++] = segments.get(dayOf(r.ts))!.fileOffset + at[i]!;
        params[p++] = sizes[i]!;
      }
      // Spread: better-sqlite3 reads arguments faster than the elements of an array.
      this.#insertStatement(rows).run(...params);
      for (let i = 0; i < rows; i++) {
        const r = records[first + i]!;
        if (!carriesTs(r.id, r.ts)) this.#listId.run(r.id, r.ts, ns[i]!);
        if (rollups !== null) this.#rollups.collect(r, ns[i]!, rollups);
      }
    }
    if (rollups !== null) this.#rollups.beforeCommit(rollups);
  }

  #insertStatement(rows: number): Statement {
    let statement = this.#inserts[rows];
    if (statement === undefined) {
      statement = this.#db.prepare(`${INSERT_INTO} ${new Array<string>(rows).fill(INSERT_ROW).join(', ')}`);
      this.#inserts[rows] = statement;
    }
    return statement;
  }

  #summary(row: PageRow): AuditSummary {
    return summaryFromRecord(columnsOf(row), this.#readHead(row)?.detail ?? LOST_DETAIL);
  }

  /** The head of a row's record, or null when its bytes are not there (or not its own). */
  #readHead(row: PageRow): RecordHead | null {
    const day = dayOf(row.ts);
    let bytes = this.#head;
    let read = this.#files.read(day, row.off, Math.min(row.len, bytes.length), bytes);
    let head = readHead(bytes, 0, read);
    if (head === null && read === bytes.length && row.len > bytes.length) {
      bytes = Buffer.allocUnsafe(row.len);
      read = this.#files.read(day, row.off, row.len, bytes);
      head = readHead(bytes, 0, read);
    }
    return head !== null && head.id === row.id ? head : null;
  }

  #rolledUp(dim: string, window: UsageWindow): UsageSum {
    const sum = new UsageSum();
    this.#addRolledUp(sum, dim, window);
    return sum;
  }

  /** The window's whole hours, from the table's cells and the sums still in memory. */
  #addRolledUp(sum: UsageSum, dim: string, window: UsageWindow): void {
    if (window.hours === null) return;
    const [from, to] = window.hours;
    addRows(sum, this.#rollupByValue.all(dim, from, to) as SumRow[]);
    for (const c of this.#rollups.pendingCells(dim, from, to)) {
      sum.add(c.value, c.requests, c.inputTokens, c.outputTokens, c.totalTokens, c.costPico, c.unpricedRequests);
    }
  }

  /** Raw rows carrying `label` in [start, end): each value, and once per entry in `labelled`. */
  #addLabelled(sum: UsageSum, labelled: UsageSum, label: string, start: number, end: number): void {
    for (const row of this.#rawLabelled.iterate(start, 0, end, 0) as IterableIterator<LabelledRow>) {
      const value = (JSON.parse(row.labels) as AuditEntry['labels'])[label];
      if (value === undefined) continue;
      const input = Number(row.input_tokens);
      const output = Number(row.output_tokens);
      const total = Number(row.total_tokens);
      const cost = row.cost_pico ?? 0n;
      const unpriced = row.cost_pico === null && row.provider !== null ? 1 : 0;
      if (forEachLabelValue(value, (v) => sum.add(v, 1, input, output, total, cost, unpriced))) labelled.add(null, 1, input, output, total, cost, unpriced);
    }
  }

  #open(): void {
    if (this.#closed) throw new Error('the audit store is closed');
  }
}

function addRows(sum: UsageSum, rows: readonly SumRow[]): void {
  for (const r of rows) {
    sum.add(r.value, Number(r.requests), Number(r.input_tokens), Number(r.output_tokens), Number(r.total_tokens), r.cost_pico, Number(r.unpriced_requests));
  }
}

function columnsOf(row: PageRow): RecordColumns {
  return {
    id: row.id,
    ts: row.ts,
    provider: row.provider,
    key_id: row.key_id,
    status: row.status,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    total_tokens: row.total_tokens,
    cost_pico: row.cost_pico,
    labels: row.labels === null ? {} : (JSON.parse(row.labels) as AuditEntry['labels']),
  };
}

function labelsText(labels: AuditEntry['labels']): string | null {
  for (const _ in labels) return JSON.stringify(labels);
  return null;
}
