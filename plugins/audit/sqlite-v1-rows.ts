// Entries written by schema version 1 (bodies and JSON in the table) are moved to the segment
// layout when the store opens: in chunks, each written to the segments and inserted as narrow
// rows in the same transaction that deletes the old rows, so a crash mid-way resumes where it
// stopped. The rollups already count them and are left alone. This runs once per database.
import type { Database } from 'better-sqlite3';
import type { AuditEntry, AuditSummary } from './entry.js';
import { recordFromEntry } from './entry-record.js';
import type { EntryRecord } from './entry-record.js';

const CHUNK = 500;

interface V1Row {
  seq: number;
  summary: string;
  detail: string;
  request_body: string | null;
  response_body: string | null;
}

type V1Detail = Pick<AuditEntry, 'request_headers' | 'request_body_truncated' | 'response_body_truncated' | 'usage' | 'cost' | 'attempts'>;

/**
 * Moves every version 1 row; `write` stores records like an insert, without counting them in
 * the rollups, and runs `alsoInTransaction` in its transaction. Returns how many moved.
 */
export function moveV1Rows(db: Database, write: (records: EntryRecord[], alsoInTransaction: () => void) => void): number {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit_entries_v1'").get() !== undefined;
  if (!exists) return 0;
  const read = db.prepare(`SELECT seq, summary, detail, request_body, response_body FROM audit_entries_v1 ORDER BY seq LIMIT ${CHUNK}`);
  const deleteLabels = db.prepare('DELETE FROM audit_labels_v1 WHERE entry_id <= ?');
  const deleteRows = db.prepare('DELETE FROM audit_entries_v1 WHERE seq <= ?');
  let moved = 0;
  for (;;) {
    const rows = read.all() as V1Row[];
    if (rows.length === 0) break;
    const last = rows[rows.length - 1]!.seq;
    write(rows.map(recordOfV1Row), () => {
      deleteLabels.run(last);
      deleteRows.run(last);
    });
    moved += rows.length;
  }
  db.exec('DROP TABLE audit_entries_v1; DROP TABLE audit_labels_v1');
  return moved;
}

function recordOfV1Row(row: V1Row): EntryRecord {
  const summary = JSON.parse(row.summary) as AuditSummary;
  const detail = JSON.parse(row.detail) as V1Detail;
  const entry: AuditEntry = {
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
  return recordFromEntry(entry);
}
