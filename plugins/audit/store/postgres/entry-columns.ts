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
const JSON_FIELDS = FIELDS.filter((f) => COLUMN_TYPES[f].startsWith('json'));

export const ENTRY_COLUMNS = FIELDS.join(', ');
export const SUMMARY_COLUMNS = FIELDS.filter((f) => !DETAIL.has(f)).join(', ');
/**
 * The column definition list of `json_to_recordset` over a batch of rows, and the values it
 * selects. JSON fields arrive as text and are cast: json_to_recordset unescapes the whole
 * document, and a `\u0000` inside a nested value would stop it.
 */
export const RECORD_COLUMNS = FIELDS.map((f) => `${f} ${JSON_FIELDS.includes(f) ? 'text' : COLUMN_TYPES[f].replace(/ (NOT NULL|UNIQUE).*$/, '')}`).join(', ');
export const RECORD_VALUES = FIELDS.map((f) => (JSON_FIELDS.includes(f) ? `${f}::json` : f)).join(', ');

/** The table's column definitions, for the migration that creates it. */
export function columnDefinitions(): string {
  return FIELDS.map((f) => `${f} ${COLUMN_TYPES[f]}`).join(',\n    ');
}

/**
 * PostgreSQL text cannot hold U+0000, so a NUL in a text value (a binary body, a model name, a
 * filter) becomes U+FFFD, the mark a body's invalid UTF-8 gets already. Inside `json` columns
 * it stays an escape and comes back exact.
 */
export function pgText<T>(v: T): T {
  return (typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v) as T;
}

/** The row as JSON for `json_to_recordset`. */
export function rowOf(e: AuditEntry): Record<string, unknown> {
  const row: Record<string, unknown> = { ...e };
  for (const f of TEXT_FIELDS) row[f] = pgText(e[f]);
  for (const f of JSON_FIELDS) row[f] = e[f] === null ? null : JSON.stringify(e[f]);
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
