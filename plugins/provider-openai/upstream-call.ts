// The upstream call every OpenAI-style operation makes: POST JSON with the endpoint's headers
// (never a client's), an error status mapped from OpenAI's error body, and a success body
// read once and forwarded as its own bytes: only its usage is parsed. A success status with an
// error body is mapped like an error status (readRaw).
import { providerFailed } from '../../core/errors.js';
import type { UpstreamClient, UpstreamResponse } from '../../core/http-client.js';
import { MemberKey, lastStringMember, looksLikeJsonObject, topLevelMember, topLevelValueAt } from '../../core/json-member.js';
import { jsonReply } from '../../core/reply.js';
import type { JsonReply } from '../../core/reply.js';
import type { OperationRequest } from '../../core/provider.js';
import type { Usage } from '../../core/types/usage.js';
import { withServiceTier } from '../../core/usage-mapping.js';
import type { OpenAIEndpoint } from './endpoint.js';

export function postJson(upstream: UpstreamClient, ep: OpenAIEndpoint, request: OperationRequest, url: string, payload: string): Promise<UpstreamResponse> {
  return upstream.request({ provider: ep.name, url, method: 'POST', headers: ep.headers, body: payload, signal: request.signal, mapError: ep.mapError, context: request.meter });
}

/**
 * The success body's bytes. A body that is not a JSON object is the provider failing (502), and
 * so is one with a top-level `error` that is not null, whatever the status said: OpenRouter
 * answers 200 and then `{"error": {...}}` when its upstream fails after the head went out.
 * (A Responses object's own `"error": null` is no failure.)
 */
export async function readRaw(res: UpstreamResponse, ep: OpenAIEndpoint): Promise<Buffer> {
  const raw = await res.body.bytes();
  if (!looksLikeJsonObject(raw)) {
    const provider = res.body.provider;
    throw providerFailed(provider, `provider '${provider}' answered with a body that is not JSON`);
  }
  if (isErrorBody(raw)) throw ep.mapError(res.statusCode, raw.toString('utf8'), null);
  return raw;
}

const ERROR = new MemberKey('error');
const NULL_START = 0x6e; // n

function isErrorBody(raw: Buffer): boolean {
  const at = topLevelValueAt(raw, ERROR);
  return at !== -1 && raw[at] !== NULL_START;
}

const USAGE = new MemberKey('usage');

/** The body's `usage` object (null when it has none): read from the bytes, parsed in full only if that fails. */
export function usageMember<U>(provider: string, raw: Buffer): U | null {
  try {
    return (topLevelMember(raw, USAGE) ?? null) as U | null;
  } catch (err) {
    throw providerFailed(provider, `provider '${provider}' answered with a body that is not JSON`, err);
  }
}

const SERVICE_TIER = new MemberKey('service_tier');

/** The usage with the service tier the body reports (OpenAI's `flex`, `priority`), read from its bytes. */
export function withBodyServiceTier(usage: Usage, raw: Buffer): Usage {
  return withServiceTier(usage, lastStringMember(raw, SERVICE_TIER));
}

/** The reply that forwards the provider's own bytes, with the usage read from them (usageMember). */
export function forwardedReply(raw: Buffer, usage: Usage | null, status: number): JsonReply {
  return jsonReply(undefined, usage, raw, status);
}
