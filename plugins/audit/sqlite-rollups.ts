// When the SQLite store's rollups are written. Not per batch: a batch of 100 entries touches
// dozens of (hour, dimension, value) cells, and upserting them cost more than the entries' own
// rows. Entries are summed in memory once their insert has committed (`pending`) and the sums
// are written every minute (maintain()) and at close, one transaction each. Nor by reading
// finished hours back: grouping rows that were in memory a moment ago cost more again.
//
// `rolled_until` (audit_state) says up to when the table's cells are complete: it drops to the
// hour of the oldest entry summed in memory, in the same transaction as that entry's row, and
// goes back up when the sums are written. After a crash the sums in memory are gone, and the
// hours from `rolled_until` on are rebuilt from their rows (in steps that yield, replacing
// their cells), while usage reads those hours from the rows. Exactness holds at every moment:
//   - hours before `until` are answered from the table's cells plus the pending sums, later
//     ones from raw rows;
//   - an entry stored during a rebuild, behind the part already scanned, is added to the
//     rebuild's sums once its transaction has committed;
//   - an entry older than what retention already purged (a late spill) goes into the table in
//     its own insert's transaction: its hour's rows are gone, so that hour could not be rebuilt.
import type { Database, Statement } from 'better-sqlite3';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { AuditEntry } from './entry.js';
import { N_OF_SEQ, SEQ_OF, TS_OF_SEQ } from './entry-sequence.js';
import type { SeqPosition } from './entry-sequence.js';
import { HOUR_MS, hourOf, RollupBatch } from './rollup.js';
import type { RollupCell, RollupInput } from './rollup.js';

/** `rolled_until` when every hour is complete. */
const COMPLETE = Number.MAX_SAFE_INTEGER;
// Rows grouped per step of a rebuild: about a millisecond of work.
const SCAN_ROWS = 2000;
const ROLLED_UNTIL = 'rolled_until';
const PURGED_BEFORE = 'purged_before';

interface GroupRow {
  key_id: string | null;
  model: string | null;
  provider: string | null;
  labels: string | null;
  requests: bigint;
  input_tokens: bigint;
  output_tokens: bigint;
  total_tokens: bigint;
  cost_pico: bigint;
  unpriced_requests: bigint;
}

interface Scan {
  hour: number;
  /** Rows before this position are in `sums`. */
  done: SeqPosition;
  sums: RollupBatch;
}

/** What an insert collects for the rollups, row by row, inside its transaction. */
export interface InsertRollups {
  /** Entries older than the purged hours: written in the insert's own transaction. */
  now: RollupBatch | null;
  /** Entries summed in memory once the insert has committed. */
  pending: RollupInput[] | null;
  /** The oldest hour among them. */
  oldestHour: number;
  /** Entries a running rebuild has scanned past: added to it once the insert has committed. */
  rebuilt: RollupInput[] | null;
}

export function insertRollups(): InsertRollups {
  return { now: null, pending: null, oldestHour: COMPLETE, rebuilt: null };
}

export class HourlyRollups {
  readonly #upsert: Statement;
  readonly #setState: Statement;
  readonly #hasCell: Statement;
  readonly #firstFrom: Statement;
  readonly #stepEnd: Statement;
  readonly #groups: Statement;
  readonly #flush: () => void;
  readonly #finishHour: (scan: Scan, next: number) => void;
  /** Hours before it are answered from cells (table and pending), later ones from rows. */
  #until: number;
  /** `rolled_until` as stored. */
  #stored: number;
  #purgedBefore: number;
  #pending = new RollupBatch();
  #scan: Scan | null = null;
  #lane: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(db: Database) {
    this.#upsert = db.prepare(`INSERT INTO usage_rollup
      (bucket_hour, dim, value, requests, input_tokens, output_tokens, total_tokens, cost_pico, unpriced_requests)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (dim, bucket_hour, value) DO UPDATE SET
        requests = requests + excluded.requests,
        input_tokens = input_tokens + excluded.input_tokens,
        output_tokens = output_tokens + excluded.output_tokens,
        total_tokens = total_tokens + excluded.total_tokens,
        cost_pico = cost_pico + excluded.cost_pico,
        unpriced_requests = unpriced_requests + excluded.unpriced_requests`);
    this.#setState = db.prepare('INSERT INTO audit_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
    this.#hasCell = db.prepare('SELECT 1 FROM usage_rollup WHERE dim = ? AND bucket_hour = ? AND value = ?').pluck();
    this.#firstFrom = db.prepare(`SELECT ${TS_OF_SEQ} FROM audit_entries WHERE seq >= ${SEQ_OF} ORDER BY seq LIMIT 1`).pluck();
    this.#stepEnd = db.prepare(`SELECT ${TS_OF_SEQ} AS ts, ${N_OF_SEQ} AS n FROM audit_entries WHERE seq >= ${SEQ_OF} AND seq < ${SEQ_OF} ORDER BY seq LIMIT 1 OFFSET ${SCAN_ROWS}`);
    this.#groups = db
      .prepare(`SELECT key_id, model, provider, labels, COUNT(*) AS requests, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
        SUM(total_tokens) AS total_tokens, COALESCE(SUM(cost_pico), 0) AS cost_pico, SUM(cost_pico IS NULL AND provider IS NOT NULL) AS unpriced_requests
        FROM audit_entries WHERE seq >= ${SEQ_OF} AND seq < ${SEQ_OF} GROUP BY key_id, model, provider, labels`)
      .safeIntegers(true);
    const state = db.prepare('SELECT value FROM audit_state WHERE name = ?').pluck();
    this.#stored = (state.get(ROLLED_UNTIL) as number | undefined) ?? COMPLETE;
    this.#until = this.#stored;
    this.#purgedBefore = (state.get(PURGED_BEFORE) as number | undefined) ?? 0;
    this.#flush = db.transaction(() => {
      this.write(this.#pending);
      this.#setState.run(ROLLED_UNTIL, this.#until);
    });
    const deleteHour = db.prepare('DELETE FROM usage_rollup WHERE bucket_hour = ?');
    this.#finishHour = db.transaction((scan: Scan, next: number) => {
      // Cells written for this hour before the crash hold part of its rows: replaced whole.
      deleteHour.run(scan.hour);
      this.write(scan.sums);
      this.write(this.#pending);
      this.#setState.run(ROLLED_UNTIL, next);
    });
  }

  /** Hours before this (ms, an hour boundary) are answered from cells; later ones from rows. */
  get until(): number {
    return this.#until;
  }

  /** For a row an insert just stored at (its ts, `n`); call inside the insert's transaction. */
  collect(r: RollupInput, n: number, into: InsertRollups): void {
    if (r.ts < this.#purgedBefore) {
      (into.now ??= new RollupBatch()).add(r);
      return;
    }
    if (r.ts < this.#until) {
      (into.pending ??= []).push(r);
      const hour = hourOf(r.ts);
      if (hour < into.oldestHour) into.oldestHour = hour;
      return;
    }
    const scan = this.#scan;
    if (scan !== null && hourOf(r.ts) === scan.hour && (r.ts < scan.done.ts || (r.ts === scan.done.ts && n < scan.done.n))) {
      (into.rebuilt ??= []).push(r);
    }
  }

  /** Last thing in the insert's transaction. */
  beforeCommit(into: InsertRollups): void {
    if (into.now !== null) this.write(into.now);
    // The table no longer holds everything before this hour: a crash now would lose the sums.
    if (into.oldestHour < this.#stored) this.#setState.run(ROLLED_UNTIL, into.oldestHour);
  }

  /** After the insert's transaction committed. */
  committed(into: InsertRollups): void {
    if (into.oldestHour < this.#stored) this.#stored = into.oldestHour;
    if (into.pending !== null) for (const r of into.pending) this.#pending.add(r);
    if (into.rebuilt !== null && this.#scan !== null) for (const r of into.rebuilt) this.#scan.sums.add(r);
  }

  /** Whether any entry of that hour counts under that value (cells of the table or in memory). */
  has(dim: string, hour: number, value: string): boolean {
    return this.#pending.has(dim, hour, value) || this.#hasCell.get(dim, hour, value) !== undefined;
  }

  /** The sums in memory, for one dimension in hours [from, to): to be added to the table's. */
  pendingCells(dim: string, from: number, to: number): Iterable<RollupCell> {
    return this.#pending.cellsOf(dim, from, to);
  }

  /** Writes the sums in memory, then rebuilds the hours a crash left incomplete. */
  maintain(): Promise<void> {
    const run = this.#lane.then(async () => {
      this.flush();
      if (this.#until < COMPLETE) await this.#rebuild();
    });
    this.#lane = run.catch(() => undefined);
    return run;
  }

  /** Writes the sums in memory to the table now (a synchronous transaction). */
  flush(): void {
    if (this.#closed || (this.#pending.empty && this.#stored === this.#until)) return;
    this.#flush();
    this.#pending = new RollupBatch();
    this.#stored = this.#until;
  }

  /**
   * Retention purged the rows before `ts`: an entry stored later for those hours is written to
   * the table straight away, since its hour could not be rebuilt from rows.
   */
  purged(ts: number, db: Database): void {
    const floor = hourOf(ts) + (ts % HOUR_MS === 0 ? 0 : HOUR_MS);
    if (floor <= this.#purgedBefore) return;
    db.transaction(() => this.#setState.run(PURGED_BEFORE, floor))();
    this.#purgedBefore = floor;
  }

  /** Adds the cells' sums to the table (inside the caller's transaction). */
  write(sums: RollupBatch): void {
    for (const c of sums.cells()) {
      this.#upsert.run(c.bucketHour, c.dim, c.value, c.requests, c.inputTokens, c.outputTokens, c.totalTokens, c.costPico, c.unpricedRequests);
    }
  }

  /** Writes what is in memory and stops; a rebuild cut short is resumed by the next open. */
  close(): void {
    this.flush();
    this.#closed = true;
  }

  async #rebuild(): Promise<void> {
    while (this.#until < COMPLETE && !this.#closed) {
      const first = this.#firstFrom.get(this.#until, 0) as number | undefined;
      if (first === undefined) {
        // Nothing after it: every hour is complete once the sums in memory are written.
        this.#until = COMPLETE;
        this.flush();
        return;
      }
      const hour = hourOf(first);
      const scan: Scan = { hour, done: { ts: hour, n: 0 }, sums: new RollupBatch() };
      this.#scan = scan;
      try {
        for (;;) {
          const end = (this.#stepEnd.get(scan.done.ts, scan.done.n, hour + HOUR_MS, 0) as SeqPosition | undefined) ?? { ts: hour + HOUR_MS, n: 0 };
          for (const g of this.#groups.all(scan.done.ts, scan.done.n, end.ts, end.n) as GroupRow[]) {
            const labels = g.labels === null ? {} : (JSON.parse(g.labels) as AuditEntry['labels']);
            scan.sums.addGroup(hour, g.key_id, g.model ?? '', g.provider, labels, {
              requests: Number(g.requests),
              inputTokens: Number(g.input_tokens),
              outputTokens: Number(g.output_tokens),
              totalTokens: Number(g.total_tokens),
              costPico: g.cost_pico,
              unpricedRequests: Number(g.unpriced_requests),
            });
          }
          scan.done = end;
          if (end.ts === hour + HOUR_MS) break;
          await yieldToLoop();
          if (this.#closed) return;
        }
        this.#finishHour(scan, hour + HOUR_MS);
        this.#until = hour + HOUR_MS;
        this.#stored = this.#until;
        this.#pending = new RollupBatch();
      } finally {
        this.#scan = null;
      }
    }
  }
}
