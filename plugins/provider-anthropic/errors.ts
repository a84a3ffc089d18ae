// Anthropic error answers -> GatewayError. Anthropic's body is
// `{type:'error', error:{type, message}}`, both as an HTTP error body and as the data of an
// `event: error` in a stream (where there is no HTTP status, hence statusForErrorType).
import { providerStatusError, type GatewayError } from '../../core/errors.js';
import { isRecord } from './is-record.js';

interface ErrorDetail { type: string | null; message: string | null }

function parsedBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

function errorDetail(body: unknown): ErrorDetail {
  const parsed = parsedBody(body);
  const error = isRecord(parsed) ? parsed.error : undefined;
  if (!isRecord(error)) return { type: null, message: null };
  return {
    type: typeof error.type === 'string' ? error.type : null,
    message: typeof error.message === 'string' && error.message !== '' ? error.message : null,
  };
}

/** The HTTP status Anthropic documents for each error type, for errors that arrive mid-stream. */
const STATUS_BY_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function statusForErrorType(type: string | null): number {
  return (type === null ? undefined : STATUS_BY_TYPE[type]) ?? 500;
}

/**
 * Anthropic's 5xx, including its own 529 "overloaded", become a retryable 502 (see
 * providerStatusError); 4xx keep their status. Only Anthropic's message is forwarded, never
 * a body it did not shape as an error (an HTML page from a proxy, say).
 */
export function fromAnthropicError(status: number, body: unknown, provider: string, retryAfter: number | null = null): GatewayError {
  const detail = errorDetail(body);
  const message = detail.message ?? `provider '${provider}' answered with status ${status}`;
  return providerStatusError(provider, status, message, detail.type, null, retryAfter);
}

/** The error carried by a stream's `event: error`. */
export function fromAnthropicStreamError(body: unknown, provider: string): GatewayError {
  return fromAnthropicError(statusForErrorType(errorDetail(body).type), body, provider);
}
