// OpenAI's error body `{error: {message, type, param, code}}` to the contract's envelope.
import type { GatewayError } from '../../core/errors.js';
import { providerStatusError } from '../../core/errors.js';

interface OpenAIErrorBody {
  error?: { message?: unknown; type?: unknown; param?: unknown; code?: unknown } | string;
  message?: unknown;
}

export function fromOpenAIError(provider: string, status: number, text: string, retryAfter: number | null = null): GatewayError {
  let message = `provider '${provider}' answered ${status}`;
  let code: string | null = null;
  let param: string | null = null;
  try {
    const body = JSON.parse(text) as OpenAIErrorBody;
    const err = body.error;
    if (typeof err === 'string') message = err;
    else if (err && typeof err === 'object') {
      if (typeof err.message === 'string') message = err.message;
      if (typeof err.code === 'string') code = err.code;
      else if (typeof err.type === 'string') code = err.type;
      if (typeof err.param === 'string') param = err.param;
    } else if (typeof body.message === 'string') message = body.message;
  } catch {
    if (text.length > 0 && text.length < 500) message = `${message}: ${text.trim()}`;
  }
  return providerStatusError(provider, status, message, code, param, retryAfter !== null && Number.isFinite(retryAfter) ? retryAfter : null);
}
