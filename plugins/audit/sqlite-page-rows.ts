// The rows a page of GET /admin/audit is taken from: newest first, read backwards along the
// rowid (which is the time order, entry-sequence.ts) with the filters checked row by row.
// Only the rowid is indexed, so a filter on a model, provider, key or label is helped by the
// rollups instead: an hour without a cell for the value holds no matching entry and is skipped
// with one primary-key lookup, so a rare value costs the hours it appears in, not the whole
// table. A common value fills the page from the newest rows right away.
import type { Database, Statement } from 'better-sqlite3';
import { N_OF_SEQ, SEQ_OF, TS_OF_SEQ } from './entry-sequence.js';
import type { SeqPosition } from './entry-sequence.js';
import { HOUR_MS, hourOf } from './rollup.js';
import type { AuditFilter } from './store.js';

/** Where an entry sits: its position, and its record in the segment file of its day. */
export interface Located {
  ts: number;
  n: number;
  off: number;
  len: number;
}

export interface PageRow extends Located {
  id: string;
  provider: string | null;
  key_id: string | null;
  status: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_pico: number | null;
  /** JSON text, null for none. */
  labels: string | null;
}

export const PAGE_COLUMNS = `${TS_OF_SEQ} AS ts, ${N_OF_SEQ} AS n, id, provider, key_id, status, input_tokens, output_tokens, total_tokens, cost_pico, labels, off, len`;
// What a scan through the bodies needs of each row, read as arrays: better-sqlite3 builds a row
// object property by property, which costs more than the row itself.
const LOCATED_COLUMNS = `${TS_OF_SEQ}, ${N_OF_SEQ}, off, len`;

type Shape = 'row' | 'located';

// Filters combine into a bounded set of shapes; the cap only guards against long label lists.
const STATEMENT_CACHE_LIMIT = 256;

// A label matches when its value, or one of its values, is the one asked for. instr() first:
// most rows are rejected without parsing their JSON.
const LABEL_MATCH = `(labels IS NOT NULL AND instr(labels, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(labels) l WHERE l.key = ?
  AND (l.type = 'text' AND l.value = ? OR l.type = 'array' AND EXISTS (SELECT 1 FROM json_each(l.value) v WHERE v.type = 'text' AND v.value = ?))))`;

/** What the rollups tell about an hour (sqlite-rollups.ts). */
export interface RolledUp {
  readonly until: number;
  has(dim: string, hour: number, value: string): boolean;
}

interface Where {
  sql: string;
  params: Array<string | number>;
  /** Rollup cells (dim, value) every matching entry's hour has. */
  cells: Array<[string, string]>;
}

export class PageRows {
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();
  readonly #first: Statement;
  readonly #last: Statement;
  readonly #rollups: RolledUp;
  readonly #rowAt: Statement;

  constructor(db: Database, rollups: RolledUp) {
    this.#db = db;
    this.#rollups = rollups;
    this.#first = db.prepare(`SELECT ${TS_OF_SEQ} AS ts, ${N_OF_SEQ} AS n FROM audit_entries ORDER BY seq LIMIT 1`);
    this.#last = db.prepare(`SELECT ${TS_OF_SEQ} AS ts, ${N_OF_SEQ} AS n FROM audit_entries ORDER BY seq DESC LIMIT 1`);
    this.#rowAt = db.prepare(`SELECT ${PAGE_COLUMNS} FROM audit_entries WHERE seq = ${SEQ_OF}`);
  }

  /**
   * Batches (of up to `batch` rows) of the entries matching every filter but `q`, newest first,
   * strictly older than `before`. Stop pulling once the page is full.
   */
  rows(filter: AuditFilter, before: SeqPosition | null, batch: number): Generator<PageRow[]> {
    return this.#batches(filter, before, batch, 'row') as Generator<PageRow[]>;
  }

  /** The same, only where each entry sits: for a scan through the bodies. */
  located(filter: AuditFilter, before: SeqPosition | null, batch: number): Generator<Located[]> {
    return this.#batches(filter, before, batch, 'located');
  }

  /** The full row of an entry at a position. */
  row(at: SeqPosition): PageRow {
    return this.#rowAt.get(at.ts, at.n) as PageRow;
  }

  *#batches(filter: AuditFilter, before: SeqPosition | null, batch: number, shape: Shape): Generator<Located[]> {
    const first = this.#first.get() as SeqPosition | undefined;
    const last = this.#last.get() as SeqPosition | undefined;
    if (first === undefined || last === undefined) return;
    // Positions [low, high): from inclusive; to, and the cursor, exclusive.
    let high: SeqPosition = { ts: last.ts, n: last.n + 1 };
    if (filter.to !== undefined) high = earlier(high, { ts: filter.to, n: 0 });
    if (before !== null) high = earlier(high, before);
    const low = filter.from === undefined ? first : later(first, { ts: filter.from, n: 0 });
    const where = whereOf(filter);
    const statement = this.#statement(where.sql, shape);
    if (where.cells.length === 0) {
      yield* this.#range(statement, shape, where.params, low, high, batch);
      return;
    }
    const rollups = this.#rollups;
    for (let hour = hourOf(high.ts); hour >= hourOf(low.ts); hour -= HOUR_MS) {
      // Hours being rebuilt after a crash have no cells to tell: they are read.
      if (hour < rollups.until && !where.cells.every(([dim, value]) => rollups.has(dim, hour, value))) continue;
      yield* this.#range(statement, shape, where.params, later(low, { ts: hour, n: 0 }), earlier(high, { ts: hour + HOUR_MS, n: 0 }), batch);
    }
  }

  *#range(statement: Statement, shape: Shape, params: ReadonlyArray<string | number>, low: SeqPosition, high: SeqPosition, batch: number): Generator<Located[]> {
    if (earlier(high, low) === high) return;
    let to = high;
    for (;;) {
      const found = statement.all(low.ts, low.n, to.ts, to.n, ...params, batch);
      const rows = shape === 'row' ? (found as PageRow[]) : (found as Array<[number, number, number, number]>).map(([ts, n, off, len]): Located => ({ ts, n, off, len }));
      if (rows.length > 0) yield rows;
      if (rows.length < batch) return;
      const oldest = rows[rows.length - 1]!;
      to = { ts: oldest.ts, n: oldest.n };
    }
  }

  #statement(where: string, shape: Shape): Statement {
    const key = `${shape}${where}`;
    let statement = this.#statements.get(key);
    if (statement === undefined) {
      if (this.#statements.size >= STATEMENT_CACHE_LIMIT) this.#statements.clear();
      const columns = shape === 'row' ? PAGE_COLUMNS : LOCATED_COLUMNS;
      statement = this.#db.prepare(`SELECT ${columns} FROM audit_entries WHERE seq >= ${SEQ_OF} AND seq < ${SEQ_OF}${where} ORDER BY seq DESC LIMIT ?`);
      if (shape === 'located') statement.raw(true);
      this.#statements.set(key, statement);
    }
    return statement;
  }
}

function earlier(a: SeqPosition, b: SeqPosition): SeqPosition {
  return a.ts < b.ts || (a.ts === b.ts && a.n <= b.n) ? a : b;
}

function later(a: SeqPosition, b: SeqPosition): SeqPosition {
  return earlier(a, b) === a ? b : a;
}

function whereOf(filter: AuditFilter): Where {
  let sql = '';
  const params: Array<string | number> = [];
  const cells: Array<[string, string]> = [];
  if (filter.model !== undefined) {
    sql += ' AND model = ?';
    params.push(filter.model);
    cells.push(['model', filter.model]);
  }
  if (filter.provider !== undefined) {
    sql += ' AND provider = ?';
    params.push(filter.provider);
    cells.push(['provider', filter.provider]);
  }
  if (filter.key !== undefined) {
    sql += ' AND key_id = ?';
    params.push(filter.key);
    cells.push(['key', filter.key]);
  }
  if (filter.status !== undefined) {
    const [lowest, highest] = filter.status;
    sql += lowest === highest ? ' AND status = ?' : ' AND status BETWEEN ? AND ?';
    params.push(lowest);
    if (lowest !== highest) params.push(highest);
  }
  for (const label of filter.labels ?? []) {
    sql += ` AND ${LABEL_MATCH}`;
    params.push(JSON.stringify(label.value), label.name, label.value, label.value);
    // Rollups count no empty value: such a filter is checked row by row only.
    if (label.value !== '') cells.push([`label:${label.name}`, label.value]);
  }
  return { sql, params, cells };
}
