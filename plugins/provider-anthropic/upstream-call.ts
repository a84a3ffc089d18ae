// The upstream call every Anthropic operation makes: send with the instance's headers (never a
// client's), turn an error status into the contract's error with Anthropic's own message, and
// read a JSON success body once.
import type { Cancellation } from '../../core/cancellation.js';
import { providerFailed } from '../../core/errors.js';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from '../../core/http-client.js';
import type { AnthropicEndpoint } from './endpoint.js';
import { fromAnthropicError } from './errors.js';

export function callAnthropic(
  upstream: UpstreamClient,
  ep: AnthropicEndpoint,
  method: UpstreamRequest['method'],
  url: string,
  body: string | null,
  signal: Cancellation | AbortSignal,
  context?: UpstreamRequest['context'],
): Promise<UpstreamResponse> {
  return upstream.request({
    provider: ep.name,
    url,
    method,
    headers: ep.headers,
    body,
    signal,
    context,
    mapError: (status, text, retryAfter) => fromAnthropicError(status, text, ep.name, retryAfter),
  });
}

export interface ExpectedBody<T> {
  is(value: unknown): value is T;
  /** What it is, for the 502 message ("a message"). */
  what: string;
}

/** The parsed body when it is JSON of the expected shape; anything else is the provider sending garbage (502). */
export async function readJson<T>(res: UpstreamResponse, expected: ExpectedBody<T>): Promise<T> {
  const value = await res.body.json();
  const provider = res.body.provider;
  if (!expected.is(value)) throw providerFailed(provider, `provider '${provider}' answered with something that is not ${expected.what}`);
  return value;
}
