// The route table. Model operations run the whole stage pipeline; handler routes (admin,
// health, models list, dashboard) run auth, then their handler. Exact paths are one Map
// lookup; patterns (`:param` segments, a trailing `*`) are tried in registration order.
import type { RequestContext } from './context.js';
import type { StreamFormat } from './stream/format.js';

/** Who may call a route: anyone, any valid credential, or an admin credential. */
export type Access = 'public' | 'client' | 'admin';

export type RouteHandler = (ctx: RequestContext) => Promise<void>;

export interface RouteSpec {
  /** HTTP method, or '*' for any. */
  readonly method: string;
  /** `/v1/chat/completions`, `/admin/keys/:id`, `/p/:provider/*`. */
  readonly path: string;
  readonly access: Access;
  /** The operation dispatched to providers (`chat`, `embeddings`, ...); null for handler routes. */
  readonly operation: string | null;
  /** `json`: the core reads and parses the body before the route stage; `raw`: left unread for the plugin. */
  readonly body: 'json' | 'raw' | 'none';
  /** How streamed replies of this operation are framed and reassembled. */
  readonly streamFormat: StreamFormat | null;
  readonly handler: RouteHandler | null;
}

export interface RouteMatch {
  readonly spec: RouteSpec;
  readonly params: Record<string, string>;
}

interface CompiledPattern {
  spec: RouteSpec;
  segments: string[];
  wildcard: boolean;
}

export type RouteLookup = RouteMatch | 'method_not_allowed' | null;

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class RouteTable {
  /** Exact paths by method, each with its match built once: a lookup allocates nothing. */
  readonly #exact = new Map<string, Map<string, RouteMatch>>();
  readonly #patterns: CompiledPattern[] = [];

  add(spec: RouteSpec): void {
    if (spec.operation === null && spec.handler === null) throw new Error(`route ${spec.path} needs an operation or a handler`);
    if (spec.path.includes(':') || spec.path.endsWith('*')) {
      const segments = spec.path.split('/').slice(1);
      const wildcard = segments[segments.length - 1] === '*';
      if (wildcard) segments.pop();
      this.#patterns.push({ spec, segments, wildcard });
      return;
    }
    let byMethod = this.#exact.get(spec.path);
    if (!byMethod) this.#exact.set(spec.path, (byMethod = new Map()));
    if (byMethod.has(spec.method)) throw new Error(`route ${spec.method} ${spec.path} is registered twice`);
    byMethod.set(spec.method, Object.freeze({ spec, params: NO_PARAMS }));
  }

  match(method: string, path: string): RouteLookup {
    const byMethod = this.#exact.get(path);
    let pathMatched = false;
    if (byMethod) {
      const exact = byMethod.get(method) ?? byMethod.get('*');
      if (exact) return exact;
      // A pattern may still serve this method on the same path (`GET /admin/:x` beside an exact `POST /admin/keys`).
      pathMatched = true;
    }
    const parts = path.split('/').slice(1);
    for (const pattern of this.#patterns) {
      const params = matchSegments(pattern, parts);
      if (!params) continue;
      if (pattern.spec.method === method || pattern.spec.method === '*') return { spec: pattern.spec, params };
      pathMatched = true;
    }
    return pathMatched ? 'method_not_allowed' : null;
  }

  /** The methods a path answers, for the `Allow` header a 405 must carry (RFC 9110, 15.5.6). Off the hot path. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>(this.#exact.get(path)?.keys() ?? []);
    const parts = path.split('/').slice(1);
    for (const pattern of this.#patterns) if (matchSegments(pattern, parts)) methods.add(pattern.spec.method);
    methods.delete('*');
    return [...methods];
  }
}

function matchSegments(pattern: CompiledPattern, parts: string[]): Record<string, string> | null {
  const { segments, wildcard } = pattern;
  if (wildcard ? parts.length <= segments.length : parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (seg.startsWith(':')) {
      if (part === '') return null;
      params[seg.slice(1)] = part;
    } else if (seg !== part) return null;
  }
  if (wildcard) params['*'] = parts.slice(segments.length).join('/');
  return params;
}
