// How an entry maps onto a row of `audit_entries`: one column per field, so an operator can
// query the table with sqlite3. Booleans are 0/1; objects and lists are JSON text.
import type { AuditEntry, AuditSummary } from '../../audit-entry.js';

type Kind = 'value' | 'bool' | 'json';

/** Every field but `time` (it is `ts`), in table order; `summary` marks what a list page shows. */
const FIELDS: ReadonlyArray<{ name: keyof AuditEntry; kind: Kind; summary: boolean }> = [
  ['id', 'value'],
  ['ts', 'value'],
  ['duration_ms', 'value'],
  ['ttfb_ms', 'value'],
  ['method', 'value'],
  ['route', 'value'],
  ['operation', 'value'],
  ['model', 'value'],
  ['resolved_model', 'value'],
  ['provider_model', 'value'],
  ['provider', 'value'],
  ['status', 'value'],
  ['stream', 'bool'],
  ['key_id', 'value'],
  ['key_name', 'value'],
  ['labels', 'json'],
  ['client_ip', 'value'],
  ['input_tokens', 'value'],
  ['output_tokens', 'value'],
  ['total_tokens', 'value'],
  ['cost_usd', 'value'],
  ['cost_pico', 'value'],
  ['cost_source', 'value'],
  ['cache_hit', 'bool'],
  ['error', 'json'],
  ['trace_id', 'value'],
  ['request_headers', 'json', false],
  ['request_body', 'value', false],
  ['request_body_truncated', 'bool', false],
  ['response_body', 'value', false],
  ['response_body_truncated', 'bool', false],
  ['usage', 'json', false],
  ['cost', 'json', false],
  ['attempts', 'json', false],
].map(([name, kind, summary]) => ({ name: name as keyof AuditEntry, kind: kind as Kind, summary: summary !== false }));

export const ENTRY_COLUMNS = FIELDS.map((f) => f.name).join(', ');
export const SUMMARY_COLUMNS = FIELDS.filter((f) => f.summary).map((f) => f.name).join(', ');
export const ENTRY_PLACEHOLDERS = FIELDS.map(() => '?').join(', ');

/** The table's column definitions, for the migration that creates it. */
export const ENTRY_COLUMN_TYPES: Readonly<Partial<Record<keyof AuditEntry, string>>> = {
  id: 'TEXT NOT NULL UNIQUE',
  ts: 'INTEGER NOT NULL',
  duration_ms: 'REAL',
  ttfb_ms: 'REAL',
  method: 'TEXT NOT NULL',
  route: 'TEXT NOT NULL',
  status: 'INTEGER NOT NULL',
  stream: 'INTEGER NOT NULL',
  labels: 'TEXT NOT NULL',
  input_tokens: 'INTEGER NOT NULL',
  output_tokens: 'INTEGER NOT NULL',
  total_tokens: 'INTEGER NOT NULL',
  cost_pico: 'INTEGER',
  cache_hit: 'INTEGER NOT NULL',
  request_headers: 'TEXT NOT NULL',
  request_body_truncated: 'INTEGER NOT NULL',
  response_body_truncated: 'INTEGER NOT NULL',
  attempts: 'TEXT NOT NULL',
};

export function columnDefinitions(): string {
  return FIELDS.map((f) => `${f.name} ${ENTRY_COLUMN_TYPES[f.name] ?? 'TEXT'}`).join(',\n    ');
}

/** The row's values, in column order. */
export function rowValues(e: AuditEntry): unknown[] {
  return FIELDS.map((f) => {
    const v = e[f.name];
    if (f.kind === 'bool') return v ? 1 : 0;
    if (f.kind === 'json') return v === null ? null : JSON.stringify(v);
    return v;
  });
}

/** An entry (or a summary, from SUMMARY_COLUMNS) read back from its row. */
export function entryOfRow(row: Record<string, unknown>): AuditEntry;
export function entryOfRow(row: Record<string, unknown>, summaryOnly: true): AuditSummary;
export function entryOfRow(row: Record<string, unknown>, summaryOnly = false): AuditEntry | AuditSummary {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    if (summaryOnly && !f.summary) continue;
    if (f.name === 'ts') out['time'] = new Date(row['ts'] as number).toISOString();
    const v = row[f.name];
    out[f.name] = f.kind === 'bool' ? v === 1 : f.kind === 'json' && v !== null ? JSON.parse(v as string) : v;
  }
  return out as unknown as AuditEntry;
}
