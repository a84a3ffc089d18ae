// The audit store on better-sqlite3: `<dataDir>/sluice.db`, WAL, statements prepared once.
// better-sqlite3 is synchronous, so the writer calls insert() off the request path in batches
// (one transaction each), and purges run in small chunks that yield to the event loop.
import { chmodSync } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { decodeCursor, encodeCursor } from './cursor.js';
import { summaryOf } from './entry.js';
import type { AuditEntry, AuditSummary } from './entry.js';
import { ALL_DIM, labelledDim, modelValue, RollupBatch } from './rollup.js';
import { migrate } from './sqlite-schema.js';
import type { AuditFilter, AuditPage, AuditStore, LabelFilter, UsageGroupBy, UsageRow } from './store.js';
import { splitWindow, UsageSum } from './usage-window.js';
import type { UsageWindow } from './usage-window.js';

/** What an entry keeps beside its summary and bodies, stored as one JSON text. */
interface EntryDetail {
  request_headers: AuditEntry['request_headers'];
  request_body_truncated: boolean;
  response_body_truncated: boolean;
  usage: AuditEntry['usage'];
  cost: AuditEntry['cost'];
  attempts: AuditEntry['attempts'];
}

interface FullRow {
  summary: string;
  detail: string;
  request_body: string | null;
  response_body: string | null;
}

interface PageRow {
  seq: number;
  ts: number;
  summary: string;
}

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

export interface SqliteStoreOptions {
  /** ms a statement waits for another connection's lock (other plugins share the file). */
  busyTimeoutMs?: number;
}

const PURGE_CHUNK = 2000;
const QUERY_CACHE_LIMIT = 256;
// A label this rare is always cheaper to start from, however small the table.
const MIN_RARE_LABEL_ROWS = 1000;

const SUMS = `COUNT(*) AS requests, COALESCE(SUM(e.input_tokens), 0) AS input_tokens, COALESCE(SUM(e.output_tokens), 0) AS output_tokens,
  COALESCE(SUM(e.total_tokens), 0) AS total_tokens, COALESCE(SUM(e.cost_pico), 0) AS cost_pico,
  COALESCE(SUM(e.cost_pico IS NULL AND e.provider IS NOT NULL), 0) AS unpriced_requests`;

// The raw-row expression each grouping uses; it must give the same value as rollup.ts does.
const RAW_VALUE: Record<'key' | 'model' | 'provider', string> = {
  key: `COALESCE(e.key_id, '')`,
  model: `COALESCE(e.model, '')`,
  provider: `COALESCE(e.provider, '')`,
};

export class SqliteAuditStore implements AuditStore {
  readonly file: string;
  readonly #db: Database.Database;
  readonly #insertEntry: Statement;
  readonly #insertLabel: Statement;
  readonly #upsertRollup: Statement;
  readonly #getEntry: Statement;
  readonly #rollupByValue: Statement;
  readonly #rawByValue: Record<'key' | 'model' | 'provider', Statement>;
  readonly #rawByLabel: Statement;
  readonly #rawAll: Statement;
  readonly #rawLabelled: Statement;
  readonly #countLabel: Statement;
  readonly #entryCount: Statement;
  readonly #purgeLabels: Statement;
  readonly #purgeEntries: Statement;
  readonly #insertBatch: (entries: readonly AuditEntry[]) => void;
  readonly #purgeChunk: (ts: number) => number;
  readonly #pageStatements = new Map<string, Statement>();
  #closed = false;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.file = file;
    const db = new Database(file, { timeout: options.busyTimeoutMs ?? 5000 });
    this.#db = db;
    try {
      // Request bodies are in here: readable by the gateway's user only (WAL files inherit it).
      if (file !== ':memory:') chmodSync(file, 0o600);
      db.pragma('journal_mode = WAL');
      // WAL + NORMAL: a power cut may lose the last transactions, never corrupt the file.
      db.pragma('synchronous = NORMAL');
      db.pragma('cache_size = -32000');
      migrate(db);
      // Keeps the planner's statistics fresh on a long-lived connection, cheaply.
      db.pragma('analysis_limit = 1000');
      db.pragma('optimize = 0x10002');
    } catch (err) {
      db.close();
      throw err;
    }

    // ON CONFLICT (id), not OR IGNORE: only a known id is skipped; OR IGNORE would also skip,
    // silently, a row that breaks a NOT NULL constraint.
    this.#insertEntry = db.prepare(`INSERT INTO audit_entries
      (id, ts, model, provider, key_id, status, stream, cache_hit, input_tokens, output_tokens, total_tokens, cost_pico, summary, detail, request_body, response_body)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`);
    this.#insertLabel = db.prepare('INSERT OR IGNORE INTO audit_labels (entry_id, name, value) VALUES (?, ?, ?)');
    this.#upsertRollup = db.prepare(`INSERT INTO usage_rollup
      (bucket_hour, dim, value, requests, input_tokens, output_tokens, total_tokens, cost_pico, unpriced_requests)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (dim, bucket_hour, value) DO UPDATE SET
        requests = requests + excluded.requests,
        input_tokens = input_tokens + excluded.input_tokens,
        output_tokens = output_tokens + excluded.output_tokens,
        total_tokens = total_tokens + excluded.total_tokens,
        cost_pico = cost_pico + excluded.cost_pico,
        unpriced_requests = unpriced_requests + excluded.unpriced_requests`);
    this.#getEntry = db.prepare('SELECT summary, detail, request_body, response_body FROM audit_entries WHERE id = ?');
    this.#rollupByValue = db
      .prepare(`SELECT value, SUM(requests) AS requests, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
        SUM(total_tokens) AS total_tokens, SUM(cost_pico) AS cost_pico, SUM(unpriced_requests) AS unpriced_requests
        FROM usage_rollup WHERE dim = ? AND bucket_hour >= ? AND bucket_hour < ? GROUP BY value`)
      .safeIntegers(true);
    const raw = (value: string): Statement =>
      db.prepare(`SELECT ${value} AS value, ${SUMS} FROM audit_entries e WHERE e.ts >= ? AND e.ts < ? GROUP BY 1`).safeIntegers(true);
    this.#rawByValue = { key: raw(RAW_VALUE.key), model: raw(RAW_VALUE.model), provider: raw(RAW_VALUE.provider) };
    this.#rawByLabel = db
      // CROSS JOIN keeps the entries (by time) as the outer loop: left to itself the planner
      // walks every row of the label from the name index, all time long.
      .prepare(`SELECT l.value AS value, ${SUMS} FROM audit_entries e CROSS JOIN audit_labels l ON l.entry_id = e.seq AND l.name = ?
        WHERE e.ts >= ? AND e.ts < ? AND l.value <> '' GROUP BY l.value`)
      .safeIntegers(true);
    this.#rawAll = db.prepare(`SELECT '' AS value, ${SUMS} FROM audit_entries e WHERE e.ts >= ? AND e.ts < ?`).safeIntegers(true);
    this.#rawLabelled = db
      .prepare(`SELECT '' AS value, ${SUMS} FROM audit_entries e WHERE e.ts >= ? AND e.ts < ?
        AND EXISTS (SELECT 1 FROM audit_labels l WHERE l.entry_id = e.seq AND l.name = ? AND l.value <> '')`)
      .safeIntegers(true);
    // Counting stops at the limit: all it must tell is "fewer than that".
    this.#countLabel = db.prepare('SELECT COUNT(*) AS n FROM (SELECT 1 FROM audit_labels WHERE name = ? AND value = ? LIMIT ?)');
    // Two rowid seeks (one query with both MIN and MAX would scan the table instead); an
    // estimate, since purged or ignored rows leave gaps, which is all the choice needs.
    this.#entryCount = db.prepare('SELECT COALESCE((SELECT MAX(seq) FROM audit_entries) - (SELECT MIN(seq) FROM audit_entries) + 1, 0) AS n');
    // Both deletes pick the same oldest chunk: they run back to back in one transaction.
    const chunk = `SELECT seq FROM audit_entries WHERE ts < ? ORDER BY ts, seq LIMIT ${PURGE_CHUNK}`;
    this.#purgeLabels = db.prepare(`DELETE FROM audit_labels WHERE entry_id IN (${chunk})`);
    this.#purgeEntries = db.prepare(`DELETE FROM audit_entries WHERE seq IN (${chunk})`);

    this.#insertBatch = db.transaction((entries: readonly AuditEntry[]) => this.#insertAll(entries));
    this.#purgeChunk = db.transaction((ts: number) => {
      this.#purgeLabels.run(ts);
      return this.#purgeEntries.run(ts).changes;
    });
  }

  insert(entries: readonly AuditEntry[]): void {
    this.#open();
    if (entries.length > 0) this.#insertBatch(entries);
  }

  get(id: string): AuditEntry | null {
    this.#open();
    const row = this.#getEntry.get(id) as FullRow | undefined;
    if (row === undefined) return null;
    const summary = JSON.parse(row.summary) as AuditSummary;
    const detail = JSON.parse(row.detail) as EntryDetail;
    return {
      ...summary,
      request_headers: detail.request_headers,
      request_body: row.request_body,
      request_body_truncated: detail.request_body_truncated,
      response_body: row.response_body,
      response_body_truncated: detail.response_body_truncated,
      usage: detail.usage,
      cost: detail.cost,
      attempts: detail.attempts,
    };
  }

  query(filter: AuditFilter, cursor: string | null, limit: number): AuditPage {
    this.#open();
    const where: string[] = [];
    const params: Array<string | number> = [];
    if (filter.model !== undefined) {
      where.push('e.model = ?');
      params.push(filter.model);
    }
    if (filter.provider !== undefined) {
      where.push('e.provider = ?');
      params.push(filter.provider);
    }
    if (filter.key !== undefined) {
      where.push('e.key_id = ?');
      params.push(filter.key);
    }
    if (filter.status !== undefined) {
      const [low, high] = filter.status;
      if (low === high) {
        where.push('e.status = ?');
        params.push(low);
      } else {
        where.push('e.status BETWEEN ? AND ?');
        params.push(low, high);
      }
    }
    if (filter.from !== undefined) {
      where.push('e.ts >= ?');
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      where.push('e.ts < ?');
      params.push(filter.to);
    }
    const labels = filter.labels ?? [];
    const rare = this.#rarestLabel(labels, limit);
    for (const label of labels) {
      // A rare label drives the query from its few rows (then sorts them); a common one is
      // checked row by row while walking newest first, which stops after a page.
      if (label === rare) where.push('e.seq IN (SELECT entry_id FROM audit_labels WHERE name = ? AND value = ?)');
      else where.push('EXISTS (SELECT 1 FROM audit_labels l WHERE l.entry_id = e.seq AND l.name = ? AND l.value = ?)');
      params.push(label.name, label.value);
    }
    if (filter.q !== undefined) {
      const pattern = `%${escapeLike(filter.q)}%`;
      where.push("(e.request_body LIKE ? ESCAPE '\\' OR e.response_body LIKE ? ESCAPE '\\')");
      params.push(pattern, pattern);
    }
    if (cursor !== null) {
      const after = decodeCursor(cursor);
      where.push('(e.ts, e.seq) < (?, ?)');
      params.push(after.ts, after.seq);
    }
    // One row more than asked says whether another page exists.
    params.push(limit + 1);
    // The page's row numbers first, its summaries after: when the filter needs a sort (a
    // status class, a rare label) only (ts, seq) pairs are sorted, not every summary text.
    const sql = `SELECT seq, ts, summary FROM audit_entries WHERE seq IN (
        SELECT e.seq FROM audit_entries e ${where.length > 0 ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY e.ts DESC, e.seq DESC LIMIT ?
      ) ORDER BY ts DESC, seq DESC`;
    const rows = this.#pageStatement(sql).all(...params) as PageRow[];
    const more = rows.length > limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1];
    return {
      data: rows.map((r) => JSON.parse(r.summary) as AuditSummary),
      next_cursor: more && last !== undefined ? encodeCursor({ ts: last.ts, seq: last.seq }) : null,
    };
  }

  usage(groupBy: UsageGroupBy, from: number, to: number): UsageRow[] {
    this.#open();
    const window = splitWindow(from, to);
    const sum = new UsageSum();
    const label = groupBy.startsWith('label:') ? groupBy.slice('label:'.length) : null;
    if (label === '' || (label === null && !Object.hasOwn(RAW_VALUE, groupBy))) throw new Error(`cannot group usage by '${groupBy}'`);
    if (window.hours !== null) addRows(sum, this.#rollupByValue.all(groupBy, window.hours[0], window.hours[1]) as SumRow[]);
    for (const [start, end] of window.raw) {
      const rows = label !== null ? this.#rawByLabel.all(label, start, end) : this.#rawByValue[groupBy as 'key' | 'model' | 'provider'].all(start, end);
      addRows(sum, rows as SumRow[]);
    }
    if (label !== null) {
      // Calls without the label: the window's totals minus the entries carrying it.
      const all = this.#totals(ALL_DIM, window, (start, end) => this.#rawAll.all(start, end));
      const labelled = this.#totals(labelledDim(label), window, (start, end) => this.#rawLabelled.all(start, end, label));
      sum.addDifference(all, labelled);
    }
    return sum.sorted();
  }

  #totals(dim: string, window: UsageWindow, raw: (start: number, end: number) => unknown[]): UsageRow {
    const sum = new UsageSum();
    if (window.hours !== null) addRows(sum, this.#rollupByValue.all(dim, window.hours[0], window.hours[1]) as SumRow[]);
    for (const [start, end] of window.raw) addRows(sum, raw(start, end) as SumRow[]);
    return sum.total();
  }

  async purgeBefore(ts: number): Promise<number> {
    let deleted = 0;
    for (;;) {
      if (this.#closed) return deleted;
      const n = this.#purgeChunk(ts);
      deleted += n;
      if (n < PURGE_CHUNK) {
        // Hourly upkeep: refreshes the planner's statistics when the tables changed enough.
        if (deleted > 0) this.#db.pragma('optimize');
        return deleted;
      }
      // Each chunk holds the write lock for a few ms; requests run in between.
      await yieldToLoop();
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#db.pragma('optimize');
    } finally {
      this.#db.close();
    }
  }

  #insertAll(entries: readonly AuditEntry[]): void {
    const rollup = new RollupBatch();
    for (const e of entries) {
      const detail: EntryDetail = {
        request_headers: e.request_headers,
        request_body_truncated: e.request_body_truncated,
        response_body_truncated: e.response_body_truncated,
        usage: e.usage,
        cost: e.cost,
        attempts: e.attempts,
      };
      const result = this.#insertEntry.run(
        e.id,
        e.ts,
        modelValue(e) || null,
        e.provider,
        e.key_id,
        e.status,
        e.stream ? 1 : 0,
        e.cache_hit ? 1 : 0,
        e.input_tokens,
        e.output_tokens,
        e.total_tokens,
        e.cost_pico,
        JSON.stringify(summaryOf(e)),
        JSON.stringify(detail),
        e.request_body,
        e.response_body,
      );
      // Already stored (a retried batch, a re-ingested spill): counted once, not twice.
      if (result.changes === 0) continue;
      const seq = result.lastInsertRowid;
      const labels = e.labels;
      for (const name in labels) {
        const value = labels[name]!;
        if (typeof value === 'string') this.#insertLabel.run(seq, name, value);
        else for (const v of value) this.#insertLabel.run(seq, name, v);
      }
      rollup.add(e);
    }
    for (const c of rollup.cells()) {
      this.#upsertRollup.run(c.bucketHour, c.dim, c.value, c.requests, c.inputTokens, c.outputTokens, c.totalTokens, c.costPico, c.unpricedRequests);
    }
  }

  /**
   * The label filter to start a page from, or null to check every label row by row. Starting
   * from a label costs about one lookup per entry carrying it plus a sort; walking newest first
   * costs about (page size x entries / entries carrying it) probes. The first wins below about
   * sqrt(page x entries / 4) carriers (~3,600 of a million entries for a page of 50).
   */
  #rarestLabel(labels: readonly LabelFilter[], limit: number): LabelFilter | null {
    if (labels.length === 0) return null;
    const entries = (this.#entryCount.get() as { n: number }).n;
    let bestCount = Math.max(MIN_RARE_LABEL_ROWS, Math.ceil(Math.sqrt(((limit + 1) * entries) / 4)));
    let best: LabelFilter | null = null;
    for (const label of labels) {
      const count = (this.#countLabel.get(label.name, label.value, bestCount) as { n: number }).n;
      if (count < bestCount) {
        best = label;
        bestCount = count;
      }
    }
    return best;
  }

  #pageStatement(sql: string): Statement {
    let statement = this.#pageStatements.get(sql);
    if (statement === undefined) {
      // Filters combine into a bounded set of shapes; the cap only guards against label lists.
      if (this.#pageStatements.size >= QUERY_CACHE_LIMIT) this.#pageStatements.clear();
      statement = this.#db.prepare(sql);
      this.#pageStatements.set(sql, statement);
    }
    return statement;
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

/** A LIKE pattern matching `text` literally (with ESCAPE '\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
