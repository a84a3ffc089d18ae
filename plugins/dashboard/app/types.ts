// The admin API's JSON as the browser receives it, as far as the dashboard reads it (docs/api.md,
// docs/audit.md): the wire contract, deliberately not the server's internal types, which the
// browser bundle must not import (they pull in Node and change with the store).
export interface List<T> {
  object: 'list';
  data: T[];
  next_cursor?: string | null;
}

export type BudgetPeriod = 'daily' | 'weekly' | 'monthly' | 'total';

export interface KeyFields {
  name: string;
  labels: Record<string, string>;
  budget: { amount_usd: number; period: BudgetPeriod } | null;
  rate_limit: { rpm: number | null; tpm: number | null; concurrent: number | null } | null;
  allowed_models: string[] | null;
  expires_at: string | null;
  admin: boolean;
  disabled: boolean;
}

export interface ApiKey extends KeyFields {
  id: string;
  created_at: string;
  spend: { amount_usd: string; period: BudgetPeriod; from: string };
}

export interface CreatedKey extends ApiKey {
  secret: string;
}

export interface UsageRow {
  value: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd: string;
  unpriced_requests: number;
}

export type UsageBucket = 'hour' | 'day';

/** A row of /admin/usage with `bucket`: the UTC hour or day it covers (its start, ISO 8601). */
export interface BucketedUsageRow extends UsageRow {
  bucket: string;
}

export interface AuditSummary {
  id: string;
  time: string;
  duration_ms: number;
  ttfb_ms: number | null;
  route: string;
  model: string | null;
  provider: string | null;
  status: number;
  stream: boolean;
  key_id: string | null;
  key_name: string | null;
  labels: Record<string, string | string[]>;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Null when the price is unknown or nothing was called. */
  cost_usd: string | null;
  trace_id?: string | null;
  error: { type: string; code: string | null; message: string } | null;
}

export interface AuditEntry extends AuditSummary {
  request_headers: Record<string, string>;
  /** JSON when the stored body was JSON (and not cut), else its text. */
  request_body: unknown;
  response_body: unknown;
  request_body_truncated: boolean;
  response_body_truncated: boolean;
  usage: Record<string, unknown> | null;
  cost: { total_usd: string | null; source: string; lines?: unknown[] } | null;
  attempts: Array<{ provider: string; model: string; status: number | null; error: unknown; duration_ms: number }>;
}

export interface Model {
  id: string;
  owned_by?: string;
  metadata?: {
    display_name?: string;
    context_window?: number;
    pricing?: { input_per_mtok?: number; output_per_mtok?: number; cached_input_per_mtok?: number } | null;
  };
}

export interface ProviderHealth {
  name: string;
  type: string;
  base_url: string | null;
  models: number;
  requests: number;
  errors: number;
  client_errors: number;
  error_rate: number | null;
  avg_duration_ms: number | null;
  p95_duration_ms: number | null;
  last_error: { time: string; status: number; code: string | null; message: string | null } | null;
  /** Null when the failover plugin is off. */
  breakers: Array<{ target: string; state: 'closed' | 'open' | 'half-open'; failures: number; until: string | null }> | null;
}
