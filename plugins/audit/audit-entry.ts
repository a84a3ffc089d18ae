// One audit entry per model request, as the store keeps it and GET /admin/audit/{id} shows it
// (bodies as text here; the route parses JSON bodies back).
import type { Attempt, CostResult } from '../../core/context.js';
import type { Usage } from '../../core/types/usage.js';

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
  /** The W3C trace id of the request's span (`ctx.traceId`), null without a tracing plugin. */
  trace_id: string | null;
}

/** The full entry (GET /admin/audit/{id}). */
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

/** The model usage counts an entry under: what it resolved to, else what was asked. */
export function usageModel(e: Pick<AuditSummary, 'resolved_model' | 'model'>): string | null {
  return e.resolved_model ?? e.model;
}

/** A call that reached a provider and has no known price: the usage rows count these. */
export function isUnpriced(e: Pick<AuditSummary, 'cost_pico' | 'provider'>): boolean {
  return e.cost_pico === null && e.provider !== null;
}
