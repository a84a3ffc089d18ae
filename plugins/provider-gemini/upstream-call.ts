// The one way every Gemini operation calls the API: through the gateway's upstream client,
// with the instance's prebuilt headers and the request's cancellation; an error status becomes
// the contract's error (fromGeminiError), and a success body is read as JSON once.
import type { Cancellation } from '../../core/cancellation.js';
import { providerFailed } from '../../core/errors.js';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../../core/http-client.js';
import type { GeminiEndpoint } from './endpoint.js';
import { fromGeminiError } from './errors.js';

/** GET when `body` is null, else POST of the JSON text. Resolves only to a status below 400. */
export function callGemini(upstream: UpstreamClient, ep: GeminiEndpoint, url: string, body: string | null, signal: Cancellation | AbortSignal, context?: UpstreamRequest['context']): Promise<UpstreamResponse> {
  const mapError = (status: number, text: string, retryAfter: number | null) => fromGeminiError(status, text, ep.name, retryAfter);
  return body === null
    ? upstream.request({ provider: ep.name, url, method: 'GET', headers: ep.headers, signal, mapError, context })
    : upstream.request({ provider: ep.name, url, method: 'POST', headers: ep.jsonHeaders, body, signal, mapError, context });
}

/** The body as a JSON object; one that is not is the provider failing (502). */
export async function readGeminiJson<T extends object>(res: UpstreamResponse): Promise<T> {
  const value = await res.body.json<T>();
  if (Array.isArray(value)) {
    const provider = res.body.provider;
    throw providerFailed(provider, `provider '${provider}' answered with JSON that is not an object`);
  }
  return value;
}
