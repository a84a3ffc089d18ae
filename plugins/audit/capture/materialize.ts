// A capture turned into the entry the store keeps: credentials redacted, bodies as text (cut
// at max_body_bytes on a character boundary), the exact cost in picodollars. The writer runs
// it once per event-loop turn for that turn's captures, off the request path.
import type { CostResult } from '../../../core/context.js';
import { parseDecimal, toPicos } from '../../pricing/money.js';
import type { AuditEntry } from '../audit-entry.js';
import { requestBody, responseBody } from './body-text.js';
import type { CapturedEntry } from './capture.js';
import { redactHeaders } from './redact.js';

export interface MaterializeOptions {
  /** Body cap in bytes; null keeps whole bodies. */
  maxBodyBytes: number | null;
}

export function materialize(c: CapturedEntry, options: MaterializeOptions): AuditEntry {
  const request = requestBody(c.rawBody, options.maxBodyBytes);
  const error = c.error;
  // An error answered before any body existed: what the client got is the envelope.
  const response = responseBody(c.responseBody ?? (error !== null && c.status === error.status ? error.toEnvelope() : null), options.maxBodyBytes);
  const usage = c.usage;
  const cost = c.cost;
  const pico = costPicoNumber(cost);
  const target = c.target;
  const principal = c.principal;
  return {
    id: c.id,
    time: new Date(c.ts).toISOString(),
    ts: c.ts,
    duration_ms: c.durationMs === null ? null : roundMs(c.durationMs),
    ttfb_ms: c.firstByteMs === null ? null : roundMs(c.firstByteMs),
    method: c.method,
    route: c.path,
    operation: c.operation,
    model: c.model,
    resolved_model: target === null ? null : target.id,
    provider_model: target === null ? null : target.model,
    provider: target === null ? null : target.provider.name,
    status: c.status,
    stream: c.stream,
    key_id: principal === null ? null : principal.id,
    key_name: principal === null ? null : principal.name,
    labels: c.labels,
    client_ip: c.clientIp,
    input_tokens: int(usage?.input_tokens),
    output_tokens: int(usage?.output_tokens),
    total_tokens: int(usage?.total_tokens),
    cost_usd: pico === null || cost === null ? null : cost.total_usd,
    cost_pico: pico,
    cost_source: cost === null ? null : cost.source,
    cache_hit: c.cacheHit,
    error: error === null ? null : { type: error.type, code: error.code, message: error.message, status: error.status, provider: error.provider },
    trace_id: c.traceId,
    request_headers: redactHeaders(c.headers),
    request_body: request.body,
    request_body_truncated: request.truncated,
    response_body: response.body,
    response_body_truncated: response.truncated,
    usage,
    cost,
    attempts: c.attempts.map((a) => ({ ...a, duration_ms: roundMs(a.duration_ms), queued_ms: roundMs(a.queued_ms) })),
  };
}

/** Milliseconds as stored: sub-microsecond digits of performance.now() differences are noise. */
function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

const INTEGER = /^-?\d+$/;

/** The exact cost in picodollars as a number (the stored form), or null when unknown. */
export function costPicoNumber(cost: CostResult | null): number | null {
  if (cost === null || cost.total_usd === null) return null;
  const pico = cost['pico_usd'];
  // A CostResult from elsewhere than the pricing plugin may carry the decimal total only.
  return Number(typeof pico === 'string' && INTEGER.test(pico) ? BigInt(pico) : toPicos(parseDecimal(cost.total_usd)));
}

function int(n: number | undefined): number {
  return n !== undefined && Number.isFinite(n) ? Math.round(n) : 0;
}
