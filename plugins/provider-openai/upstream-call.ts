// The upstream call every OpenAI-style operation makes: POST JSON, map an error status to the
// contract, and read a JSON success body once (keeping its bytes for forwarding untouched).
import type { RequestContext } from '../../core/context.js';
import { providerFailed } from '../../core/errors.js';
import { upstreamError } from '../../core/http-client.js';
import type { UpstreamClient, UpstreamResponse } from '../../core/http-client.js';
import type { OpenAIEndpoint } from './endpoint.js';
import { fromOpenAIError } from './errors.js';

export async function postJson(upstream: UpstreamClient, ep: OpenAIEndpoint, ctx: RequestContext, url: string, payload: string): Promise<UpstreamResponse> {
  const res = await upstream.request({ provider: ep.name, url, method: 'POST', headers: ep.headers, body: payload, signal: ctx.abort.signal });
  if (res.statusCode >= 400) throw await errorFromResponse(ep.name, res);
  return res;
}

export async function errorFromResponse(provider: string, res: UpstreamResponse): Promise<Error> {
  let text = '';
  try {
    text = await res.body.text();
  } catch {
    // The error status is what matters; a body that breaks off adds nothing.
  }
  const retryAfter = res.headers['retry-after'];
  return fromOpenAIError(provider, res.statusCode, text, typeof retryAfter === 'string' ? Number(retryAfter) : null);
}

export interface JsonBody<T> {
  raw: Buffer;
  value: T;
}

export async function readJson<T>(provider: string, res: UpstreamResponse, signal?: AbortSignal): Promise<JsonBody<T>> {
  let raw: Buffer;
  try {
    raw = Buffer.from(await res.body.arrayBuffer());
  } catch (err) {
    // A body that times out or breaks off is the provider's failure (502/504), not ours.
    throw upstreamError(provider, err, signal);
  }
  try {
    const value = JSON.parse(raw.toString('utf8')) as T;
    if (typeof value !== 'object' || value === null) throw new Error('not an object');
    return { raw, value };
  } catch (err) {
    throw providerFailed(provider, `provider '${provider}' answered with a body that is not JSON`, err);
  }
}
