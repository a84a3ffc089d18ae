// Row numbers that sort like the audit list: seq = ts * 2^20 + n, n counting the entries
// stored for that millisecond in insertion order. The table's rowid is then its time index:
// newest-first pages, time windows and cursors are rowid ranges, and an insert lands at (or
// near) the end of the tree instead of also updating a separate (ts) index. Entries arrive
// nearly in time order (a request is logged when it ends, so a long one comes in late), so
// most take a fresh millisecond; only an older one needs a lookup of its millisecond's count.
//
// seq exceeds 2^53, so it stays in SQLite: JavaScript handles (ts, n) pairs.

export const SEQ_BITS = 20;
/**
 * SQL for the seq of (?ts, ?n), and for a row's ts and n from its seq. better-sqlite3 binds
 * numbers as doubles, and double arithmetic would round a seq: bit operators work on integers.
 */
export const SEQ_OF = `((? << ${SEQ_BITS}) | ?)`;
export const TS_OF_SEQ = `(seq >> ${SEQ_BITS})`;
export const N_OF_SEQ = `(seq & ${2 ** SEQ_BITS - 1})`;
const MAX_N = 2 ** SEQ_BITS - 1;

export interface SeqPosition {
  ts: number;
  n: number;
}

export class EntrySequence {
  /** The highest position stored, or null for an empty table. */
  #last: SeqPosition | null;
  /** The highest n stored for one millisecond (null: none), from the table. */
  readonly #lookup: (ts: number) => number | null;
  /** Older milliseconds met in the current batch, with the last n handed out. */
  readonly #older = new Map<number, number>();
  /**
   * The milliseconds the batch moved on from, each with the last n handed out (ts, n pairs).
   * The table cannot tell: a batch's rows are inserted several at a time, after their
   * positions are handed out.
   */
  readonly #passed: number[] = [];

  constructor(last: SeqPosition | null, lookup: (ts: number) => number | null) {
    this.#last = last;
    this.#lookup = lookup;
  }

  /** The n of the next entry started at `ts`. */
  next(ts: number): number {
    const last = this.#last;
    if (last === null || ts > last.ts) {
      if (last !== null) this.#passed.push(last.ts, last.n);
      this.#last = { ts, n: 0 };
      return 0;
    }
    let n: number;
    if (ts === last.ts) n = ++last.n;
    else {
      const handed = this.#older.get(ts) ?? this.#passedN(ts);
      n = (handed ?? this.#lookup(ts) ?? -1) + 1;
      this.#older.set(ts, n);
    }
    // A million entries started in one millisecond: not a gateway's traffic, a broken feed.
    if (n > MAX_N) throw new Error(`more than ${MAX_N} audit entries started at ${new Date(ts).toISOString()}`);
    return n;
  }

  /**
   * Forgets what the batch handed out for older milliseconds: if the batch rolled back, the
   * table is the truth again. (Positions at the top are never reused either way: a rolled
   * back batch only leaves gaps.)
   */
  endBatch(): void {
    this.#older.clear();
    this.#passed.length = 0;
  }

  #passedN(ts: number): number | undefined {
    const passed = this.#passed;
    for (let i = passed.length - 2; i >= 0; i -= 2) if (passed[i] === ts) return passed[i + 1];
    return undefined;
  }
}
