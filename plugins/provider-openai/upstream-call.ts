// The upstream call every OpenAI-style operation makes: POST JSON with the endpoint's headers
// (never a client's), an error status mapped from OpenAI's error body, and a JSON success body
// read once, its bytes kept for forwarding untouched.
import type { RequestContext } from '../../core/context.js';
import type { UpstreamClient, UpstreamResponse } from '../../core/http-client.js';
import { parseProviderJson } from '../../core/upstream-body.js';
import type { OpenAIEndpoint } from './endpoint.js';

export function postJson(upstream: UpstreamClient, ep: OpenAIEndpoint, ctx: RequestContext, url: string, payload: string): Promise<UpstreamResponse> {
  return upstream.request({ provider: ep.name, url, method: 'POST', headers: ep.headers, body: payload, signal: ctx.abort, mapError: ep.mapError });
}

export interface JsonBody<T> {
  raw: Buffer;
  value: T;
}

export async function readJson<T extends object>(res: UpstreamResponse): Promise<JsonBody<T>> {
  const raw = await res.body.bytes();
  return { raw, value: parseProviderJson<T>(res.body.provider, raw) };
}
