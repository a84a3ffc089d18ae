// One error type for everything a client can see. Clients only ever receive errors built by
// the factories below; anything else that escapes a stage is rendered as a 500 without its
// message or stack (the cause is kept for the operator's log).

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'internal_error'
  | 'provider_error';

export interface ErrorEnvelope {
  error: { message: string; type: ErrorType; code: string | null; param: string | null; provider?: string };
}

const BRAND = Symbol.for('sluice.error');

export class GatewayError extends Error {
  readonly [BRAND] = true;
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string | null;
  readonly param: string | null;
  readonly provider: string | null;
  /** Whether another attempt (failover, retry) may succeed where this one failed. */
  readonly retryable: boolean;
  /** Seconds, for 429/503 answers. */
  readonly retryAfter: number | null;

  constructor(init: {
    status: number;
    type: ErrorType;
    message: string;
    code?: string | null;
    param?: string | null;
    provider?: string | null;
    retryable?: boolean;
    retryAfter?: number | null;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'GatewayError';
    this.status = init.status;
    this.type = init.type;
    this.code = init.code ?? null;
    this.param = init.param ?? null;
    this.provider = init.provider ?? null;
    this.retryable = init.retryable ?? false;
    this.retryAfter = init.retryAfter ?? null;
  }

  toEnvelope(): ErrorEnvelope {
    const error: ErrorEnvelope['error'] = { message: this.message, type: this.type, code: this.code, param: this.param };
    if (this.provider !== null) error.provider = this.provider;
    return { error };
  }
}

export function isGatewayError(err: unknown): err is GatewayError {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
}

/** Any thrown value as a client-safe error: a GatewayError as is, anything else as a bare 500. */
export function toGatewayError(err: unknown): GatewayError {
  if (isGatewayError(err)) return err;
  return new GatewayError({ status: 500, type: 'internal_error', message: 'internal error', code: 'internal_error', cause: err });
}

export const badRequest = (message: string, param: string | null = null, code: string | null = null): GatewayError =>
  new GatewayError({ status: 400, type: 'invalid_request_error', message, param, code });

export const invalidJson = (detail: string): GatewayError =>
  new GatewayError({ status: 400, type: 'invalid_request_error', message: `request body is not valid JSON: ${detail}`, code: 'invalid_json' });

export const unauthorized = (message = 'missing or unknown credential'): GatewayError =>
  new GatewayError({ status: 401, type: 'authentication_error', message, code: 'invalid_api_key' });

export const forbidden = (message: string, code: string | null = null): GatewayError =>
  new GatewayError({ status: 403, type: 'permission_error', message, code });

export const routeNotFound = (method: string, path: string): GatewayError =>
  new GatewayError({ status: 404, type: 'not_found_error', message: `no route for ${method} ${path}`, code: 'route_not_found' });

export const modelNotFound = (model: string): GatewayError =>
  new GatewayError({ status: 404, type: 'not_found_error', message: `model '${model}' does not exist or is not served by this gateway`, code: 'model_not_found', param: 'model' });

export const methodNotAllowed = (method: string, path: string): GatewayError =>
  new GatewayError({ status: 405, type: 'invalid_request_error', message: `method ${method} is not allowed on ${path}`, code: 'method_not_allowed' });

export const payloadTooLarge = (limit: number): GatewayError =>
  new GatewayError({ status: 413, type: 'invalid_request_error', message: `request body exceeds the limit of ${limit} bytes`, code: 'body_too_large' });

/** `retryAfter` null: waiting will not help (a cap that never resets). */
export const rateLimited = (message: string, retryAfter: number | null, code: 'rate_limit_exceeded' | 'budget_exceeded' = 'rate_limit_exceeded'): GatewayError =>
  new GatewayError({ status: 429, type: 'rate_limit_error', message, code, retryAfter });

/** A service a plugin needs to admit the request is unreachable, and the plugin is told to refuse then. */
export const unavailable = (message: string, code: string, retryAfter = 1): GatewayError =>
  new GatewayError({ status: 503, type: 'internal_error', message, code, retryAfter });

export const unsupportedOperation = (operation: string, provider: string): GatewayError =>
  new GatewayError({ status: 501, type: 'invalid_request_error', message: `provider '${provider}' does not support ${operation}`, code: 'unsupported_operation' });

export const shuttingDown = (): GatewayError =>
  new GatewayError({ status: 503, type: 'internal_error', message: 'the gateway is shutting down', code: 'shutting_down', retryAfter: 1 });

/** The reason a request still running at the shutdown deadline is cancelled with: its client is told so. */
export const cutByShutdown = (): GatewayError =>
  new GatewayError({ status: 503, type: 'internal_error', message: 'the gateway shut down before the answer was complete', code: 'shutting_down', retryable: true, retryAfter: 1 });

/** What the log stage records of a call whose client went away before `before` (the client sees nothing). */
export const clientClosed = (before: 'the stream ended' | 'it was answered'): GatewayError =>
  new GatewayError({ status: 499, type: 'invalid_request_error', message: `the client closed the connection before ${before}`, code: 'client_closed' });

/** The provider failed: connection broke, garbage answer, or a 5xx of its own. */
export const providerFailed = (provider: string, message: string, cause?: unknown, status = 502, code: string | null = null): GatewayError =>
  new GatewayError({ status, type: 'provider_error', message, provider, code, retryable: true, cause });

export const providerTimeout = (provider: string, what: string, cause?: unknown): GatewayError =>
  new GatewayError({ status: 504, type: 'provider_error', message: `provider '${provider}' timed out (${what})`, provider, code: 'provider_timeout', retryable: true, cause });

/**
 * Every connection the operator allows to a provider's origin stayed busy for the queue time
 * (`upstream.connections_per_origin`, `upstream.queue_timeout_ms`): the gateway, not the
 * provider, refuses the call, and another attempt soon (or another target) may get through.
 */
export const providerBusy = (provider: string, connections: number, queueTimeoutMs: number): GatewayError =>
  new GatewayError({
    status: 503,
    type: 'provider_error',
    message: `all ${connections} connections to provider '${provider}' stayed busy for ${queueTimeoutMs} ms; try again later`,
    provider,
    code: 'upstream_queue_timeout',
    retryable: true,
    retryAfter: 1,
  });

const PROVIDER_STATUS_TYPE: Record<number, ErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/**
 * An error status answered by the provider itself. Its 4xx keep status and meaning; its 5xx
 * become 502, with the provider's `retry-after`. The provider's 401/403 means *our* credential
 * for it is wrong, which the client cannot fix, but the contract keeps the status with
 * `provider` set so it is visible.
 */
export function providerStatusError(
  provider: string,
  status: number,
  message: string,
  code: string | null = null,
  param: string | null = null,
  retryAfter: number | null = null,
): GatewayError {
  if (status >= 500 || status < 400) {
    return new GatewayError({ status: 502, type: 'provider_error', message, provider, code, param, retryAfter, retryable: true });
  }
  const type = PROVIDER_STATUS_TYPE[status] ?? 'invalid_request_error';
  return new GatewayError({ status, type, message, provider, code, param, retryAfter, retryable: status === 429 || status === 408 });
}
