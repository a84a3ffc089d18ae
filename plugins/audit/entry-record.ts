// The form in which the writer hands entries to a store: the columns a store filters and sums
// on as plain values, everything else already serialised as one JSON text (`detail`), and the
// bodies as the bytes received and sent. Making it costs one JSON.stringify and no copy of a
// body; a store keeps the columns as columns and the rest as it likes (the SQLite store appends
// detail and bodies to a segment file; a PostgreSQL store would use a jsonb and two text
// columns). Whole AuditEntries (tests, spill files) convert to it, and it converts back.
import type { AuditEntry, AuditSummary } from './entry.js';
import { bodyText } from './body-text.js';
import { detailOf, detailText, usageWithBodyRaw } from './record-detail.js';

export interface EntryRecord {
  id: string;
  ts: number;
  model: string | null;
  resolved_model: string | null;
  provider: string | null;
  key_id: string | null;
  status: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_pico: number | null;
  labels: AuditEntry['labels'];
  /** JSON text of a RecordDetail (record-detail.ts). */
  detail: string;
  /** As received (bytes), or text. */
  request_body: Buffer | string | null;
  /** As sent (bytes), or JSON text. */
  response_body: Buffer | string | null;
}

/** What an entry holds beyond its columns and bodies; `time` is not kept (it is `ts`). */
export type RecordDetail = Pick<
  AuditEntry,
  | 'duration_ms'
  | 'ttfb_ms'
  | 'method'
  | 'route'
  | 'operation'
  | 'model'
  | 'resolved_model'
  | 'provider_model'
  | 'key_name'
  | 'client_ip'
  | 'stream'
  | 'cache_hit'
  | 'cost_usd'
  | 'cost_source'
  | 'error'
  | 'request_headers'
  | 'request_body_truncated'
  | 'response_body_truncated'
  | 'usage'
  | 'cost'
  | 'attempts'
>;

/** The columns a store gives back beside the detail. */
export type RecordColumns = Pick<EntryRecord, 'id' | 'ts' | 'provider' | 'key_id' | 'status' | 'input_tokens' | 'output_tokens' | 'total_tokens' | 'cost_pico' | 'labels'>;

/**
 * An EntryRecord laid out for its segment file (segment-record.ts): the columns as values, the
 * detail and the bodies as the record's bytes. This is what the writer queues until a write:
 * bytes sit outside the JS heap, while a queue of detail and body strings was copied by every
 * young-generation collection it lived through, and promoted when it lived through two.
 */
export interface EncodedRecord extends Omit<EntryRecord, 'detail' | 'request_body' | 'response_body'> {
  encoded: Buffer;
}

/** What AuditStore.insert takes: the writer's encoded records, records, or whole entries. */
export type StorableEntry = EncodedRecord | EntryRecord | AuditEntry;

export function isEncoded(e: StorableEntry): e is EncodedRecord {
  return (e as EncodedRecord).encoded !== undefined;
}

export function isRecord(e: StorableEntry): e is EntryRecord {
  return typeof (e as EntryRecord).detail === 'string';
}

export function asRecord(e: EntryRecord | AuditEntry): EntryRecord {
  return isRecord(e) ? e : recordFromEntry(e);
}

export function recordFromEntry(e: AuditEntry): EntryRecord {
  const detail: RecordDetail = {
    duration_ms: e.duration_ms,
    ttfb_ms: e.ttfb_ms,
    method: e.method,
    route: e.route,
    operation: e.operation,
    model: e.model,
    resolved_model: e.resolved_model,
    provider_model: e.provider_model,
    key_name: e.key_name,
    client_ip: e.client_ip,
    stream: e.stream,
    cache_hit: e.cache_hit,
    cost_usd: e.cost_usd,
    cost_source: e.cost_source,
    error: e.error,
    request_headers: e.request_headers,
    request_body_truncated: e.request_body_truncated,
    response_body_truncated: e.response_body_truncated,
    usage: e.usage,
    cost: e.cost,
    attempts: e.attempts,
  };
  return {
    id: e.id,
    ts: e.ts,
    model: e.model,
    resolved_model: e.resolved_model,
    provider: e.provider,
    key_id: e.key_id,
    status: e.status,
    input_tokens: e.input_tokens,
    output_tokens: e.output_tokens,
    total_tokens: e.total_tokens,
    cost_pico: e.cost_pico,
    labels: e.labels,
    detail: detailText(detail, null),
    request_body: e.request_body,
    response_body: e.response_body,
  };
}

export function summaryFromRecord(c: RecordColumns, d: RecordDetail): AuditSummary {
  return {
    id: c.id,
    time: new Date(c.ts).toISOString(),
    ts: c.ts,
    duration_ms: d.duration_ms,
    ttfb_ms: d.ttfb_ms,
    method: d.method,
    route: d.route,
    operation: d.operation,
    model: d.model,
    resolved_model: d.resolved_model,
    provider_model: d.provider_model,
    provider: c.provider,
    status: c.status,
    stream: d.stream,
    key_id: c.key_id,
    key_name: d.key_name,
    labels: c.labels,
    client_ip: d.client_ip,
    input_tokens: c.input_tokens,
    output_tokens: c.output_tokens,
    total_tokens: c.total_tokens,
    cost_usd: d.cost_usd,
    cost_pico: c.cost_pico,
    cost_source: d.cost_source,
    cache_hit: d.cache_hit,
    error: d.error,
  };
}

export function entryFromRecord(c: RecordColumns, d: RecordDetail, requestBody: string | null, responseBody: string | null): AuditEntry {
  const entry = summaryFromRecord(c, d) as AuditEntry;
  entry.request_headers = d.request_headers;
  entry.request_body = requestBody;
  entry.request_body_truncated = d.request_body_truncated;
  entry.response_body = responseBody;
  entry.response_body_truncated = d.response_body_truncated;
  entry.usage = d.usage === null ? null : usageWithBodyRaw(d.usage, responseBody);
  entry.cost = d.cost;
  entry.attempts = d.attempts;
  return entry;
}

/** The whole entry a record stands for. */
export function entryOf(r: EntryRecord): AuditEntry {
  const detail = detailOf(JSON.parse(r.detail));
  if (detail === null) throw new Error(`audit record ${r.id} has no readable detail`);
  return entryFromRecord(r, detail, bodyText(r.request_body), bodyText(r.response_body));
}
