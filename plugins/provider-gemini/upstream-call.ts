// The one way every Gemini operation calls the API: through the gateway's upstream client,
// with the instance's prebuilt headers and the request's abort signal; an error status becomes
// the contract's error (fromGeminiError), and a success body is read as JSON once.
import { providerFailed } from '../../core/errors.js';
import type { GatewayError } from '../../core/errors.js';
import { upstreamError } from '../../core/http-client.js';
import type { UpstreamClient, UpstreamResponse } from '../../core/http-client.js';
import type { GeminiEndpoint } from './endpoint.js';
import { fromGeminiError } from './errors.js';
import { retryAfterHeaderSeconds } from './retry-after-header.js';

/** GET when `body` is null, else POST of the JSON text. Resolves only to a status below 400. */
export async function callGemini(upstream: UpstreamClient, ep: GeminiEndpoint, url: string, body: string | null, signal: AbortSignal): Promise<UpstreamResponse> {
  const res = body === null
    ? await upstream.request({ provider: ep.name, url, method: 'GET', headers: ep.headers, signal })
    : await upstream.request({ provider: ep.name, url, method: 'POST', headers: ep.jsonHeaders, body, signal });
  if (res.statusCode >= 400) throw await errorFromResponse(ep.name, res);
  return res;
}

async function errorFromResponse(provider: string, res: UpstreamResponse): Promise<GatewayError> {
  let text = '';
  try {
    text = await res.body.text();
  } catch {
    // The status alone still says what happened; a body that breaks off adds nothing.
  }
  return fromGeminiError(res.statusCode, text, provider, retryAfterHeaderSeconds(res.headers['retry-after']));
}

/**
 * The body as JSON. A body that breaks off or stalls is a transport failure (502/504), one that
 * is not a JSON object is the provider failing (502).
 */
export async function readGeminiJson<T extends object>(provider: string, res: UpstreamResponse, signal: AbortSignal): Promise<T> {
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    throw upstreamError(provider, err, signal);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw providerFailed(provider, `provider '${provider}' answered with a body that is not JSON`, err);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw providerFailed(provider, `provider '${provider}' answered with JSON that is not an object`);
  }
  return value as T;
}
