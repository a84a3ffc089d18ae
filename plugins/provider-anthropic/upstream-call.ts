// The upstream call every Anthropic operation makes: send with the instance's headers (never a
// client's), turn an error status into the contract's error with Anthropic's own message, and
// read a JSON success body once.
import { providerFailed, type GatewayError } from '../../core/errors.js';
import { upstreamError, type UpstreamClient, type UpstreamRequest, type UpstreamResponse } from '../../core/http-client.js';
import type { AnthropicEndpoint } from './endpoint.js';
import { fromAnthropicError } from './errors.js';

export async function callAnthropic(
  upstream: UpstreamClient,
  ep: AnthropicEndpoint,
  method: UpstreamRequest['method'],
  url: string,
  body: string | null,
  signal: AbortSignal,
): Promise<UpstreamResponse> {
  const res = await upstream.request({ provider: ep.name, url, method, headers: ep.headers, body, signal });
  if (res.statusCode >= 400) throw await errorFromResponse(ep.name, res);
  return res;
}

/** Anthropic sends retry-after in seconds on 429 and 529. */
function retryAfterSeconds(header: string | string[] | undefined): number | null {
  if (typeof header !== 'string') return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

async function errorFromResponse(provider: string, res: UpstreamResponse): Promise<GatewayError> {
  let text = '';
  try {
    text = await res.body.text();
  } catch {
    // The status is what matters; a body that breaks off adds nothing.
  }
  return fromAnthropicError(res.statusCode, text, provider, retryAfterSeconds(res.headers['retry-after']));
}

export interface ExpectedBody<T> {
  is(value: unknown): value is T;
  /** What it is, for the 502 message ("a message"). */
  what: string;
}

/**
 * The parsed body when it is JSON of the expected shape; anything else is the provider sending
 * garbage (502). A body cut off while read is a broken connection (502/504), or the client's
 * abort, which stays an abort.
 */
export async function readJson<T>(provider: string, res: UpstreamResponse, signal: AbortSignal, expected: ExpectedBody<T>): Promise<T> {
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
  if (!expected.is(value)) throw providerFailed(provider, `provider '${provider}' answered with something that is not ${expected.what}`);
  return value;
}
