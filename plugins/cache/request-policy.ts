// Whether a request may be answered from the cache and whether its answer may be stored.
// `Cache-Control: no-store` does neither; `no-cache` skips the lookup but stores the fresh
// answer (HTTP's meaning: do not serve without going to the origin). A call with an effect on
// the provider (a stored response, a continued conversation) is neither unless configured.
import type { IncomingHttpHeaders } from 'node:http';

export type Policy = 'use' | 'refresh' | 'skip';

export interface PolicyInput {
  operation: string;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  operations: ReadonlySet<string>;
  cacheSideEffects: boolean;
}

export function requestPolicy(input: PolicyInput): Policy {
  if (!input.operations.has(input.operation)) return 'skip';
  if (!input.cacheSideEffects && hasSideEffects(input.operation, input.body)) return 'skip';
  const directives = cacheControl(input.headers['cache-control']);
  if (directives.has('no-store')) return 'skip';
  return directives.has('no-cache') ? 'refresh' : 'use';
}

/**
 * `store: true` keeps the answer on the provider; `previous_response_id` continues a stored
 * conversation. The Responses API stores by default, so there only `store: false` is free of it.
 */
export function hasSideEffects(operation: string, body: Record<string, unknown>): boolean {
  if (body['previous_response_id'] !== undefined && body['previous_response_id'] !== null) return true;
  return operation === 'responses' ? body['store'] !== false : body['store'] === true;
}

function cacheControl(header: string | undefined): Set<string> {
  if (header === undefined) return new Set();
  return new Set(header.split(',').map((d) => d.trim().toLowerCase().split('=')[0]!));
}
