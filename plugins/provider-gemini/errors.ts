// A Gemini error answer ({error: {code, message, status, details}}) as a GatewayError.
import { providerStatusError, type GatewayError } from '../../core/errors.js';
import { isRecord } from './is-record.js';

interface GeminiErrorFields {
  code: number | undefined;
  message: string | undefined;
  status: string | undefined;
  details: unknown[];
}

function parsedBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

// The JSON-array form of streamGenerateContent wraps the error in an array.
function errorFields(body: unknown): GeminiErrorFields | undefined {
  const parsed = parsedBody(body);
  const envelope = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isRecord(envelope) || !isRecord(envelope.error)) return undefined;
  const { code, message, status, details } = envelope.error;
  return {
    code: typeof code === 'number' ? code : undefined,
    message: typeof message === 'string' ? message : undefined,
    status: typeof status === 'string' ? status : undefined,
    details: Array.isArray(details) ? details : [],
  };
}

function detailOfType(details: unknown[], type: string): Record<string, unknown> | undefined {
  return details.find((d): d is Record<string, unknown> => isRecord(d) && d['@type'] === `type.googleapis.com/${type}`);
}

/** google.rpc.RetryInfo.retryDelay ("22s", "10.689924287s") in whole seconds, rounded up. */
export function retryAfterSeconds(details: unknown[]): number | null {
  const delay = detailOfType(details, 'google.rpc.RetryInfo')?.retryDelay;
  if (typeof delay !== 'string') return null;
  const seconds = Number.parseFloat(delay);
  return Number.isFinite(seconds) ? Math.ceil(seconds) : null;
}

// Gemini answers a bad API key with 400 INVALID_ARGUMENT; the key is the gateway's, not the
// client's, so it is reported as the authentication failure it is.
function isBadApiKey(details: unknown[]): boolean {
  return detailOfType(details, 'google.rpc.ErrorInfo')?.reason === 'API_KEY_INVALID';
}

/**
 * `status` is the HTTP status; an error met inside a 200 stream passes anything below 400 and
 * the body's own code is used. The GatewayError's code is Gemini's status name
 * (RESOURCE_EXHAUSTED, INVALID_ARGUMENT, ...). `retryAfterHeader` (seconds) is a Retry-After
 * header's value, used when the body has no RetryInfo: Google puts the delay in the body, a
 * proxy in front of it (GEMINI_BASE_URL) may put it in the header.
 */
export function fromGeminiError(status: number, body: unknown, provider: string, retryAfterHeader: number | null = null): GatewayError {
  const fields = errorFields(body);
  const httpStatus = status >= 400 ? status : fields?.code ?? 500;
  const details = fields?.details ?? [];
  const effectiveStatus = httpStatus === 400 && isBadApiKey(details) ? 401 : httpStatus;
  const message = fields?.message ?? `provider '${provider}' answered HTTP ${httpStatus}`;
  return providerStatusError(provider, effectiveStatus, message, fields?.status ?? null, null, retryAfterSeconds(details) ?? retryAfterHeader);
}
