// How an entry maps onto a row of `audit_entries` in PostgreSQL: one typed column per field, so
// an operator can query the table with psql. Objects and lists are `json` (kept as written:
// key order, and `\u0000` escapes that `jsonb` would refuse); ms timestamps and picodollars are
// `bigint`.
import type { AuditEntry, AuditSummary } from '../../audit-entry.js';

type Field = Exclude<keyof AuditEntry, 'time'>;

/** Every field but `time` (it is `ts`), in table order, with its column type. */
const COLUMN_TYPES: Readonly<Record<Field, string>> = {
  id: 'text NOT NULL UNIQUE',
  ts: 'bigint NOT NULL',
  duration_ms: 'double precision',
  ttfb_ms: 'double precision',
  method: 'text NOT NULL',
  route: 'text NOT NULL',
  operation: 'text',
  model: 'text',
  resolved_model: 'text',
  provider_model: 'text',
  provider: 'text',
  status: 'integer NOT NULL',
  stream: 'boolean NOT NULL',
  key_id: 'text',
  key_name: 'text',
  labels: 'json NOT NULL',
  client_ip: 'text',
  input_tokens: 'bigint NOT NULL',
  output_tokens: 'bigint NOT NULL',
  total_tokens: 'bigint NOT NULL',
  cost_usd: 'text',
  cost_pico: 'bigint',
  cost_source: 'text',
  cache_hit: 'boolean NOT NULL',
  error: 'json',
  trace_id: 'text',
  request_headers: 'json NOT NULL',
  request_body: 'text',
  request_body_truncated: 'boolean NOT NULL',
  response_body: 'text',
  response_body_truncated: 'boolean NOT NULL',
  usage: 'json',
  cost: 'json',
  attempts: 'json NOT NULL',
};

/** What GET /admin/audit/{id} adds to a list page's summary. */
const DETAIL: ReadonlySet<Field> = new Set(['request_headers', 'request_body', 'request_body_truncated', 'response_body', 'response_body_truncated', 'usage', 'cost', 'attempts']);

const FIELDS = Object.keys(COLUMN_TYPES) as Field[];
const TEXT_FIELDS = FIELDS.filter((f) => COLUMN_TYPES[f].startsWith('text'));
const BIGINT_FIELDS = FIELDS.filter((f) => COLUMN_TYPES[f].startsWith('bigint'));

export const ENTRY_COLUMNS = FIELDS.join(', ');
export const SUMMARY_COLUMNS = FIELDS.filter((f) => !DETAIL.has(f)).join(', ');
/** The column definition list of `json_to_recordset` over a batch of rows. */
export const RECORD_COLUMNS = FIELDS.map((f) => `${f} ${COLUMN_TYPES[f].replace(/ (NOT NULL|UNIQUE).*$/, '')}`).join(', ');

/** The table's column definitions, for the migration that creates it. */
export function columnDefinitions(): string {
  return FIELDS.map((f) => `${f} ${COLUMN_TYPES[f]}`).join(',\n    ');
}

/**
 * The row as JSON for `json_to_recordset`. PostgreSQL text cannot hold U+0000, so a NUL in a
 * text field (a binary body, a model name) is stored as U+FFFD, the mark a body's invalid UTF-8
 * gets already; inside `json` columns it stays an escape and comes back exact.
 */
export function rowOf(e: AuditEntry): Record<string, unknown> {
  const row: Record<string, unknown> = { ...e };
  for (const f of TEXT_FIELDS) {
    const v = e[f];
    if (typeof v === 'string' && v.includes('\u0000')) row[f] = v.replaceAll('\u0000', '\uFFFD');
  }
  return row;
}

/** An entry (or a summary, from SUMMARY_COLUMNS) read back from its row. */
export function entryOfRow(row: Record<string, unknown>): AuditEntry;
export function entryOfRow(row: Record<string, unknown>, summaryOnly: true): AuditSummary;
export function entryOfRow(row: Record<string, unknown>, summaryOnly = false): AuditEntry | AuditSummary {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    if (summaryOnly && DETAIL.has(f)) continue;
    const v = row[f];
    if (f === 'ts') out['time'] = new Date(Number(v)).toISOString();
    out[f] = BIGINT_FIELDS.includes(f) && v !== null ? Number(v) : v;
  }
  return out as unknown as AuditEntry;
}
