// Upstream HTTP: one undici Pool per origin with keep-alive, the three timeouts of the config
// (connect, first byte, idle between body chunks), and the request's abort signal so a client
// that goes away cancels the upstream call. Every provider call goes through here.
import { Pool, errors as undiciErrors } from 'undici';
import type { Dispatcher } from 'undici';
import type { UpstreamOptions } from './config.js';
import { isGatewayError, providerFailed, providerTimeout } from './errors.js';

export interface UpstreamRequest {
  /** Provider name, for error messages. */
  provider: string;
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  headers: Record<string, string>;
  body?: string | Buffer | null;
  signal?: AbortSignal;
  /** Per-call overrides of the configured timeouts. */
  timeouts?: Partial<UpstreamOptions>;
}

export type UpstreamResponse = Dispatcher.ResponseData;

export class UpstreamClient {
  readonly #pools = new Map<string, Pool>();
  readonly #options: UpstreamOptions;

  constructor(options: UpstreamOptions) {
    this.#options = options;
  }

  pool(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.#options.connections_per_origin,
        connect: { timeout: this.#options.connect_timeout_ms },
        keepAliveTimeout: 30_000,
        keepAliveMaxTimeout: 600_000,
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  async request(req: UpstreamRequest): Promise<UpstreamResponse> {
    const url = new URL(req.url);
    try {
      return await this.pool(url.origin).request({
        path: url.pathname + url.search,
        method: req.method,
        headers: req.headers,
        body: req.body ?? null,
        signal: req.signal,
        headersTimeout: req.timeouts?.first_byte_timeout_ms ?? this.#options.first_byte_timeout_ms,
        bodyTimeout: req.timeouts?.idle_timeout_ms ?? this.#options.idle_timeout_ms,
      });
    } catch (err) {
      throw upstreamError(req.provider, err, req.signal);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((p) => p.close().catch(() => p.destroy())));
    this.#pools.clear();
  }
}

/** A transport failure as the contract's 502/504; an abort stays an AbortError for the caller. */
export function upstreamError(provider: string, err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return err;
  // By brand, not instanceof: a plugin may carry its own copy of the core (dual package).
  if (isGatewayError(err)) return err;
  if (err instanceof undiciErrors.HeadersTimeoutError) return providerTimeout(provider, 'no response headers in time', err);
  if (err instanceof undiciErrors.BodyTimeoutError) return providerTimeout(provider, 'no data in time', err);
  if (err instanceof undiciErrors.ConnectTimeoutError) return providerTimeout(provider, 'connect', err);
  const code = (err as { code?: string }).code;
  return providerFailed(provider, `provider '${provider}' unreachable or connection broken${code ? ` (${code})` : ''}`, err);
}
