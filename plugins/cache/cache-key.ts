// The cache key: who may share the entry, the resolved target, the operation and a canonical
// form of the body. Canonical means key order and whitespace do not matter; the fields that
// only shape delivery or name the end user (`stream`, `stream_options`, `user`) are left out,
// so a JSON answer serves a later stream of the same body and vice versa (docs/cache.md).
import { hash } from 'node:crypto';

/** Body fields that do not change the answer's content. */
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
  const text = JSON.stringify([parts.scope, parts.operation, parts.provider, parts.model, canonical(content)]);
  return hash('sha256', text);
}

/** The value with every object's keys sorted, so that equal bodies serialize equally. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value).sort()) out[name] = canonical((value as Record<string, unknown>)[name]);
  return out;
}
