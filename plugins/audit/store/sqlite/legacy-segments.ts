// Reads the entries of the store this one replaced (audit schema 3: a narrow row per entry in
// `audit_entries`, the rest in `<data_dir>/audit/<YYYY-MM-DD>.seg` as
// `["<id>",<request bytes>,<response bytes>,[<detail>]]\n<request><response>\n`, the detail a
// positional array). Only the upgrade uses it, once, in the store's worker.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { AuditEntry } from '../../audit-entry.js';

interface LegacyRow {
  id: string;
  ts: number;
  provider: string | null;
  key_id: string | null;
  status: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_pico: number | null;
  labels: string | null;
  off: number;
  len: number;
}

const DAY_MS = 86_400_000;

/** The legacy entries in insertion order (their rows' order), a batch at a time. */
export function* legacyBatches(db: Database, table: string, dataDir: string, size: number): Generator<AuditEntry[]> {
  const files = new Map<string, number | null>();
  // Read a batch whole before the caller writes: a connection cannot write while a statement reads.
  const rows = db.prepare(`SELECT seq, id, ts, provider, key_id, status, input_tokens, output_tokens, total_tokens, cost_pico, labels, off, len FROM ${table} WHERE seq > ? ORDER BY seq LIMIT ?`).safeIntegers(true);
  try {
    for (let after = -1n; ; ) {
      const batch = (rows.all(after, size) as Array<Record<keyof LegacyRow | 'seq', bigint | string | null>>).map(numbers);
      if (batch.length === 0) return;
      after = batch[batch.length - 1]!.seq;
      yield batch.map((row) => entryOf(row, recordOf(row, dataDir, files)));
    }
  } finally {
    for (const fd of files.values()) if (fd !== null) closeSync(fd);
  }
}

function numbers(r: Record<string, bigint | string | null>): LegacyRow & { seq: bigint } {
  const n = (v: bigint | string | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));
  return {
    seq: r['seq'] as bigint,
    id: r['id'] as string,
    ts: n(r['ts'])!,
    provider: r['provider'] as string | null,
    key_id: r['key_id'] as string | null,
    status: n(r['status'])!,
    input_tokens: n(r['input_tokens'])!,
    output_tokens: n(r['output_tokens'])!,
    total_tokens: n(r['total_tokens'])!,
    cost_pico: n(r['cost_pico']),
    labels: r['labels'] as string | null,
    off: n(r['off'])!,
    len: n(r['len'])!,
  };
}

function recordOf(row: LegacyRow, dataDir: string, files: Map<string, number | null>): Buffer {
  const path = join(dataDir, 'audit', `${new Date(Math.floor(row.ts / DAY_MS) * DAY_MS).toISOString().slice(0, 10)}.seg`);
  let fd = files.get(path);
  if (fd === undefined) files.set(path, (fd = existsSync(path) ? openSync(path, 'r') : null));
  const bytes = Buffer.alloc(row.len);
  return bytes.subarray(0, fd === null ? 0 : readSync(fd, bytes, 0, row.len, row.off));
}

/** The entry of a row and its record; what a crash cut from the record comes back empty. */
function entryOf(row: LegacyRow, record: Buffer): AuditEntry {
  const newline = record.indexOf(0x0a);
  let head: unknown[] | null = null;
  try {
    head = newline === -1 ? null : (JSON.parse(record.toString('utf8', 0, newline)) as unknown[]);
  } catch {
    head = null;
  }
  const d = Array.isArray(head) && head[0] === row.id && Array.isArray(head[3]) ? (head[3] as unknown[]) : [];
  const requestLength = (head?.[1] as number | undefined) ?? -1;
  const responseLength = (head?.[2] as number | undefined) ?? -1;
  const start = newline + 1;
  const whole = start + Math.max(requestLength, 0) + Math.max(responseLength, 0) <= record.length && d.length > 0;
  const request = whole && requestLength >= 0 ? record.toString('utf8', start, start + requestLength) : null;
  const responseStart = start + Math.max(requestLength, 0);
  const response = whole && responseLength >= 0 ? record.toString('utf8', responseStart, responseStart + responseLength) : null;
  const error = d[14] as [string, string | null, string, number, string | null] | null | undefined;
  return {
    id: row.id,
    time: new Date(row.ts).toISOString(),
    ts: row.ts,
    duration_ms: (d[0] as number | null) ?? null,
    ttfb_ms: (d[1] as number | null) ?? null,
    method: (d[2] as string | undefined) ?? '',
    route: (d[3] as string | undefined) ?? '',
    operation: (d[4] as string | null) ?? null,
    model: (d[5] as string | null) ?? null,
    resolved_model: (d[6] as string | null) ?? null,
    provider_model: (d[7] as string | null) ?? null,
    provider: row.provider,
    status: row.status,
    stream: d[10] === true,
    key_id: row.key_id,
    key_name: (d[8] as string | null) ?? null,
    labels: row.labels === null ? {} : (JSON.parse(row.labels) as AuditEntry['labels']),
    client_ip: (d[9] as string | null) ?? null,
    input_tokens: row.input_tokens,
    output_tokens: row.output_tokens,
    total_tokens: row.total_tokens,
    cost_usd: (d[12] as string | null) ?? null,
    cost_pico: row.cost_pico,
    cost_source: (d[13] as string | null) ?? null,
    cache_hit: d[11] === true,
    error: error ? { type: error[0], code: error[1], message: error[2], status: error[3], provider: error[4] } : null,
    trace_id: null,
    request_headers: (d[15] as AuditEntry['request_headers'] | undefined) ?? {},
    request_body: request,
    request_body_truncated: d[16] === true,
    response_body: response,
    response_body_truncated: d[17] === true,
    usage: Array.isArray(d[18]) ? usageOf(d[18] as unknown[], response) : null,
    cost: Array.isArray(d[19]) ? costOf(d[19] as CostArray) : ((d[19] as AuditEntry['cost'] | undefined) ?? null),
    attempts: ((d[20] as unknown[][] | undefined) ?? []).map((a) => ({ provider: a[0] as string, model: a[1] as string, status: a[2] as number, error: a[3] as string | null, duration_ms: a[4] as number, queued_ms: (a[5] as number | undefined) ?? 0 })),
  };
}

// [8 counts, provider_cost_usd, raw?] or [8 counts, cost, null, 1]: raw is the body's `usage`.
function usageOf(a: unknown[], responseBody: string | null): NonNullable<AuditEntry['usage']> {
  const keys = ['input_tokens', 'output_tokens', 'total_tokens', 'cached_input_tokens', 'cache_write_tokens', 'reasoning_tokens', 'audio_input_tokens', 'audio_output_tokens'] as const;
  const usage = Object.fromEntries(keys.map((k, i) => [k, a[i] as number])) as unknown as NonNullable<AuditEntry['usage']>;
  if (a[8] !== null) usage.provider_cost_usd = a[8] as number;
  if (a.length > 10 && a[10] === 1) {
    const raw = bodyUsage(responseBody);
    if (raw !== undefined) usage.raw = raw;
  } else if (a.length > 9) usage.raw = a[9];
  return usage;
}

function bodyUsage(body: string | null): unknown {
  if (body === null) return undefined;
  try {
    return (JSON.parse(body) as { usage?: unknown }).usage;
  } catch {
    return undefined;
  }
}

type CostArray = [string | null, string, unknown, unknown[][]];

function costOf(a: CostArray): NonNullable<AuditEntry['cost']> {
  const lines = a[3].map((l) => {
    const line: Record<string, unknown> = { item: l[0], quantity: l[1], rate_usd: l[2], amount_usd: l[3] };
    if (l.length > 4) line['note'] = l[4];
    return line;
  });
  return { total_usd: a[0], source: a[1], pico_usd: a[2], lines };
}
