// One audit entry per model request. The log stage only captures references (`toEntry`: a
// few dozen property reads, no copies, no serialisation); the writer turns captures into
// records for the store (`recordOf`: redaction, one JSON text, bodies kept as bytes) at flush
// time, off the request path. Context objects and their buffers are not reused, so holding
// their parts until then is safe.
import type { IncomingHttpHeaders } from 'node:http';
import type { Attempt, CostResult, Principal, RequestContext } from '../../core/context.js';
import type { GatewayError } from '../../core/errors.js';
import type { Target } from '../../core/provider.js';
import type { Usage } from '../../core/types/usage.js';
import { parseDecimal, toPicos } from '../pricing/money.js';
import { resolvedBody } from '../../core/stream/stream-fold.js';
import { bodyText, requestBody, responseBody } from './body-text.js';
import type { StoredBody } from './body-text.js';
import { entryOf } from './entry-record.js';
import type { EntryRecord, RecordDetail } from './entry-record.js';
import { jsonEqual } from './json-equal.js';
import { bodyUsage, detailText, roundMs } from './record-detail.js';

export interface AuditError {
  type: string;
  code: string | null;
  message: string;
  status: number;
  provider: string | null;
}

/** What a page of GET /admin/audit lists: everything but headers, bodies and the breakdowns. */
export interface AuditSummary {
  id: string;
  /** Start of the request, ISO 8601 (UTC). */
  time: string;
  /** The same moment in ms since the epoch. */
  ts: number;
  duration_ms: number | null;
  ttfb_ms: number | null;
  method: string;
  route: string;
  operation: string | null;
  /** The model id the client asked for. */
  model: string | null;
  /** The model id it resolved to (a virtual model's id stays as is). */
  resolved_model: string | null;
  /** The model name the provider was sent. */
  provider_model: string | null;
  provider: string | null;
  status: number;
  stream: boolean;
  key_id: string | null;
  key_name: string | null;
  /** The key's labels plus header labels; a delimited header gives one label several values. */
  labels: Record<string, string | string[]>;
  client_ip: string | null;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Exact decimal USD; null when the price is unknown or nothing was called. */
  cost_usd: string | null;
  /** The same in picodollars (1e-12 USD); a JSON integer, exact up to ~$9,007 per call. */
  cost_pico: number | null;
  cost_source: string | null;
  cache_hit: boolean;
  error: AuditError | null;
}

/** The full entry (GET /admin/audit/{id}); bodies are stored as text. */
export interface AuditEntry extends AuditSummary {
  request_headers: Record<string, string | string[]>;
  request_body: string | null;
  request_body_truncated: boolean;
  response_body: string | null;
  response_body_truncated: boolean;
  usage: Usage | null;
  cost: CostResult | null;
  attempts: Attempt[];
}

/** What the log stage keeps of a request until the writer materializes it. */
export interface CapturedEntry {
  id: string;
  ts: number;
  durationMs: number | null;
  firstByteMs: number | null;
  method: string;
  path: string;
  operation: string | null;
  model: string | null;
  target: Target | null;
  status: number;
  stream: boolean;
  principal: Principal | null;
  labels: Record<string, string | string[]>;
  clientIp: string | null;
  headers: IncomingHttpHeaders;
  rawBody: Buffer | null;
  responseBody: unknown;
  usage: Usage | null;
  cost: CostResult | null;
  attempts: Attempt[];
  cacheHit: boolean;
  error: GatewayError | null;
}

export interface CaptureOptions {
  trustProxy: boolean;
}

export function toEntry(ctx: RequestContext, options: CaptureOptions): CapturedEntry {
  const req = ctx.req;
  return {
    id: ctx.id,
    ts: ctx.startedAt,
    durationMs: ctx.durationMs,
    firstByteMs: ctx.firstByteMs,
    method: req.method ?? '',
    path: ctx.path,
    operation: ctx.route.operation,
    model: ctx.model,
    target: ctx.target,
    status: ctx.status,
    stream: ctx.stream,
    principal: ctx.principal,
    labels: ctx.labels,
    // Read now: once the socket is gone node may no longer know the peer.
    clientIp: clientIp(req.headers, req.socket.remoteAddress, options.trustProxy),
    headers: req.headers,
    rawBody: ctx.rawBody,
    responseBody: ctx.responseBody,
    usage: ctx.usage,
    cost: ctx.cost,
    attempts: ctx.attempts,
    cacheHit: ctx.cacheHit,
    error: ctx.error,
  };
}

function clientIp(headers: IncomingHttpHeaders, socketAddress: string | undefined, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = headers['x-forwarded-for'];
    if (typeof forwarded === 'string' && forwarded !== '') {
      // The left-most address is the original client; the others are proxies on the way.
      const comma = forwarded.indexOf(',');
      const first = (comma === -1 ? forwarded : forwarded.slice(0, comma)).trim();
      if (first !== '') return first;
    }
  }
  return socketAddress ?? null;
}

export interface MaterializeOptions {
  /** Body cap in bytes; null keeps whole bodies. */
  maxBodyBytes: number | null;
}

/** The capture as the writer hands it to the store: redacted, serialised, bodies as bytes. */
export function recordOf(c: CapturedEntry, options: MaterializeOptions): EntryRecord {
  const request = requestBody(c.rawBody, options.maxBodyBytes);
  // An error answered before any body existed: what the client got is the envelope.
  const error = c.error;
  const response = responseBody(c.responseBody ?? (error !== null && c.status === error.status ? error.toEnvelope() : null), options.maxBodyBytes);
  const usage = c.usage;
  const cost = c.cost;
  const pico = costPicoNumber(cost);
  const target = c.target;
  const resolved = target === null ? null : target.id;
  const provider = target === null ? null : target.provider.name;
  const principal = c.principal;
  const detail: RecordDetail = {
    duration_ms: c.durationMs === null ? null : roundMs(c.durationMs),
    ttfb_ms: c.firstByteMs === null ? null : roundMs(c.firstByteMs),
    method: c.method,
    route: c.path,
    operation: c.operation,
    model: c.model,
    resolved_model: resolved,
    provider_model: target === null ? null : target.model,
    key_name: principal === null ? null : principal.name,
    client_ip: c.clientIp,
    stream: c.stream,
    cache_hit: c.cacheHit,
    cost_usd: pico === null || cost === null ? null : cost.total_usd,
    cost_source: cost === null ? null : cost.source,
    error: error === null ? null : { type: error.type, code: error.code, message: error.message, status: error.status, provider: error.provider },
    // Redacted as it is serialised, below.
    request_headers: c.headers as AuditEntry['request_headers'],
    request_body_truncated: request.truncated,
    response_body_truncated: response.truncated,
    usage,
    cost,
    attempts: c.attempts,
  };
  return {
    id: c.id,
    ts: c.ts,
    model: c.model,
    resolved_model: resolved,
    provider,
    key_id: principal === null ? null : principal.id,
    status: c.status,
    input_tokens: int(usage?.input_tokens),
    output_tokens: int(usage?.output_tokens),
    total_tokens: int(usage?.total_tokens),
    cost_pico: pico,
    labels: c.labels,
    detail: detailText(detail, c.headers, rawInStoredBody(usage, c.responseBody, response)),
    request_body: request.body,
    response_body: response.body,
  };
}

/**
 * Whether the usage's raw object is the top-level `usage` of the response body as stored: bytes
 * forwarded untouched whose `usage` holds the same data, or an object (a folded stream, a built completion) whose
 * `usage` is the same data. A body cut by max_body_bytes may have lost it.
 */
function rawInStoredBody(usage: Usage | null, body: unknown, stored: StoredBody): boolean {
  if (usage === null || usage.raw === undefined || stored.body === null || stored.truncated) return false;
  if (Buffer.isBuffer(body)) return jsonEqual(bodyUsage(bodyText(stored.body)), usage.raw);
  // An object's JSON text opens with a brace; the note stored when serialising it failed does not.
  if (typeof stored.body !== 'string' || stored.body.charCodeAt(0) !== 0x7b) return false;
  const value = resolvedBody(body);
  return typeof value === 'object' && value !== null && !Buffer.isBuffer(value) && jsonEqual((value as { usage?: unknown }).usage, usage.raw);
}

/** The whole entry a capture becomes once stored (what GET /admin/audit/{id} answers). */
export function materialize(c: CapturedEntry, options: MaterializeOptions): AuditEntry {
  return entryOf(recordOf(c, options));
}

const INTEGER = /^-?\d+$/;
// Up to 15 digits a double holds the integer exactly: no BigInt needed on the way to a number.
const SAFE_INTEGER = /^-?\d{1,15}$/;

/** The exact cost in picodollars as a number (the stored form), or null when unknown. */
export function costPicoNumber(cost: CostResult | null): number | null {
  if (cost === null || cost.total_usd === null) return null;
  const pico = cost['pico_usd'];
  if (typeof pico === 'string' && SAFE_INTEGER.test(pico)) return Number(pico);
  const exact = costPicos(cost);
  return exact === null ? null : Number(exact);
}

/** The exact cost in picodollars, or null when unknown. */
export function costPicos(cost: CostResult | null): bigint | null {
  if (cost === null || cost.total_usd === null) return null;
  const pico = cost['pico_usd'];
  if (typeof pico === 'string' && INTEGER.test(pico)) return BigInt(pico);
  // A CostResult from elsewhere than the pricing plugin may carry the decimal total only.
  return toPicos(parseDecimal(cost.total_usd));
}

/** A call that reached a provider and has no known price: the usage rows count these. */
export function isUnpriced(entry: Pick<AuditSummary, 'cost_pico' | 'provider'>): boolean {
  return entry.cost_pico === null && entry.provider !== null;
}

function int(n: number | undefined): number {
  return n !== undefined && Number.isFinite(n) ? Math.round(n) : 0;
}

