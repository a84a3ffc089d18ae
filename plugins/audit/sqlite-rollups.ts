// When the SQLite store's rollups are written. Not per batch: a batch of 100 entries touches
// dozens of (hour, dimension, value) cells, and their upserts cost more than the entries' own
// rows. Instead an hour is rolled up once it is over (ROLL_DELAY_MS later), from its narrow
// rows, grouped in SQL, in steps that yield to the event loop, and committed with the new
// `rolled_until` in one transaction. Exactness holds at every moment:
//   - usage reads hours before `rolled_until` from the rollups and later ones from raw rows;
//   - an entry stored for an hour already rolled up (a long request logged late, a spill) is
//     added to its cells in its own insert's transaction;
//   - an entry stored during a roll, behind the part already scanned, is added to the roll's
//     sums once its transaction has committed;
//   - a crash mid-roll loses nothing: `rolled_until` did not move, the hour is rolled again.
import type { Database, Statement } from 'better-sqlite3';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { AuditEntry } from './entry.js';
import { N_OF_SEQ, SEQ_OF, TS_OF_SEQ } from './entry-sequence.js';
import type { SeqPosition } from './entry-sequence.js';
import { HOUR_MS, hourOf, RollupBatch } from './rollup.js';
import type { RollupInput } from './rollup.js';

/** An hour is rolled up this long after it ends: most late entries have arrived by then. */
export const ROLL_DELAY_MS = 5 * 60_000;
// Rows grouped per step: about a millisecond of work.
const SCAN_ROWS = 2000;
const STATE = 'rolled_until';

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
  /** Entries of hours already rolled up: written in the insert's transaction. */
  now: RollupBatch | null;
  /** Entries the running roll has scanned past: added to it once the insert committed. */
  afterCommit: RollupInput[] | null;
}

export class HourlyRollups {
  readonly #upsert: Statement;
  readonly #setState: Statement;
  readonly #firstFrom: Statement;
  readonly #stepEnd: Statement;
  readonly #groups: Statement;
  readonly #finish: (scan: Scan) => void;
  #until: number;
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
    this.#setState = db.prepare('UPDATE audit_state SET value = ? WHERE name = ?');
    this.#firstFrom = db.prepare(`SELECT ${TS_OF_SEQ} AS ts FROM audit_entries WHERE seq >= ${SEQ_OF} ORDER BY seq LIMIT 1`).pluck();
    this.#stepEnd = db.prepare(`SELECT ${TS_OF_SEQ} AS ts, ${N_OF_SEQ} AS n FROM audit_entries WHERE seq >= ${SEQ_OF} AND seq < ${SEQ_OF} ORDER BY seq LIMIT 1 OFFSET ${SCAN_ROWS}`);
    this.#groups = db
      .prepare(`SELECT key_id, model, provider, labels, COUNT(*) AS requests, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
        SUM(total_tokens) AS total_tokens, COALESCE(SUM(cost_pico), 0) AS cost_pico, SUM(cost_pico IS NULL AND provider IS NOT NULL) AS unpriced_requests
        FROM audit_entries WHERE seq >= ${SEQ_OF} AND seq < ${SEQ_OF} GROUP BY key_id, model, provider, labels`)
      .safeIntegers(true);
    this.#until = db.prepare('SELECT value FROM audit_state WHERE name = ?').pluck().get(STATE) as number;
    this.#finish = db.transaction((scan: Scan) => {
      this.write(scan.sums);
      this.#setState.run(scan.hour + HOUR_MS, STATE);
    });
  }

  /** Every entry started before this (ms, an hour boundary) is in the rollups; later ones are not. */
  get until(): number {
    return this.#until;
  }

  /** For a row an insert just stored at (its ts, `n`); call inside the insert's transaction. */
  collect(r: RollupInput, n: number, into: InsertRollups): void {
    if (r.ts < this.#until) {
      (into.now ??= new RollupBatch()).add(r);
      return;
    }
    const scan = this.#scan;
    if (scan !== null && hourOf(r.ts) === scan.hour && (r.ts < scan.done.ts || (r.ts === scan.done.ts && n < scan.done.n))) {
      (into.afterCommit ??= []).push(r);
    }
  }

  /** After the insert's transaction committed. */
  committed(into: InsertRollups): void {
    if (into.afterCommit === null || this.#scan === null) return;
    for (const r of into.afterCommit) this.#scan.sums.add(r);
  }

  /** Adds the cells' sums to the table (inside the caller's transaction). */
  write(sums: RollupBatch): void {
    for (const c of sums.cells()) {
      this.#upsert.run(c.bucketHour, c.dim, c.value, c.requests, c.inputTokens, c.outputTokens, c.totalTokens, c.costPico, c.unpricedRequests);
    }
  }

  /** Rolls up every hour with entries that ended by `before` (ms). One roll runs at a time. */
  rollUp(before: number): Promise<void> {
    const run = this.#lane.then(() => this.#roll(before));
    this.#lane = run.catch(() => undefined);
    return run;
  }

  /** Stops between steps; a roll cut short is done again by the next open. */
  close(): void {
    this.#closed = true;
  }

  async #roll(before: number): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      const first = this.#firstFrom.get(this.#until, 0) as number | undefined;
      if (first === undefined) return;
      const hour = hourOf(first);
      if (hour + HOUR_MS > before) return;
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
        this.#finish(scan);
        this.#until = hour + HOUR_MS;
      } finally {
        this.#scan = null;
      }
    }
  }
}
