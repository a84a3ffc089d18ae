// The cache key: who may share the entry, the resolved target, the operation, the shape of the
// answer and a canonical form of the body. Canonical means key order and whitespace do not
// matter. The shape (one JSON body, or a stream with its stream options) is part of the key: an
// entry holds the answer as it was sent, and no shape can be made exactly from the other
// (docs/cache.md). Left out: `user` (it names the end user, not the answer) and
// `stream_options.include_usage` (an entry keeps the usage chunk; the replay shows it or not).
import { hash } from 'node:crypto';

/** Body fields that do not change the answer's content; the shape is keyed apart. */
const DELIVERY_FIELDS: ReadonlySet<string> = new Set(['stream', 'stream_options', 'user']);

export interface KeyParts {
  /** The caller's key id, or '*' for a deployment-wide cache. */
  scope: string;
  operation: string;
  provider: string;
  model: string;
  body: Record<string, unknown>;
}

export function cacheKey(parts: KeyParts): string {
  const content: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parts.body)) if (!DELIVERY_FIELDS.has(name)) content[name] = value;
  const text = JSON.stringify([parts.scope, parts.operation, parts.provider, parts.model, shape(parts.body), canonical(content)]);
  return hash('sha256', text);
}

/** `json`, or a stream with the stream options that change its events (all but include_usage). */
function shape(body: Record<string, unknown>): unknown {
  if (body['stream'] !== true) return 'json';
  const options = body['stream_options'];
  if (typeof options !== 'object' || options === null) return ['stream', {}];
  const { include_usage: _shown, ...rest } = options as Record<string, unknown>;
  return ['stream', canonical(rest)];
}

/** The value with every object's keys sorted, so that equal bodies serialize equally. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value).sort()) out[name] = canonical((value as Record<string, unknown>)[name]);
  return out;
}
