// Upstream HTTP: one undici Pool per origin with keep-alive, the three timeouts of the config
// (connect, first byte, idle between body chunks), and cancellation: a client that goes away
// cancels the upstream call. With an operator's connection cap, calls beyond it wait in the
// origin's ConnectionQueue (a time limit, then 503). Every provider call goes through here. It uses undici's dispatch
// API directly (no Readable, no AbortSignal per request): the gateway's own per-call cost is
// the budget the benchmark holds it to.
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { Cancellation } from './cancellation.js';
import type { UpstreamOptions } from './config.js';
import { ConnectionQueue } from './connection-queue.js';
import type { QueueStats, WaitingCall } from './connection-queue.js';
import { isGatewayError, providerFailed, providerTimeout } from './errors.js';
import type { GatewayError } from './errors.js';
import type { Logger } from './logger.js';
import { Pool, errors as undiciErrors } from './undici-parts.js';
import { UpstreamBody } from './upstream-body.js';

export { UpstreamBody } from './upstream-body.js';

/** Turns a provider's error status and body into the contract's error (each provider has its format). */
export type ErrorMapper = (status: number, text: string, retryAfter: number | null) => GatewayError;

export interface UpstreamRequest {
  /** Provider name, for error messages. */
  provider: string;
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  headers: Record<string, string>;
  body?: string | Buffer | null;
  /** The request's cancellation (ctx.abort), or any AbortSignal (timeouts of background work). */
  signal?: Cancellation | AbortSignal;
  /** Per-call overrides of the configured timeouts. */
  timeouts?: Partial<UpstreamOptions>;
  /** When given, an error status (>= 400) rejects with the mapped error instead of resolving. */
  mapError?: ErrorMapper;
  /**
   * The call this request is made for (a handler's meter, or a RequestContext): the time the
   * request waited for a free connection is added to its `queuedMs`, and its `upstreamHeaders`
   * (a plugin's trace context) are sent with it, winning over `headers`.
   */
  context?: { queuedMs: number; readonly upstreamHeaders: Readonly<Record<string, string>> | null };
}

export interface UpstreamResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: UpstreamBody;
}

/** Error bodies are read for their message only; more than this is not kept. */
const ERROR_BODY_LIMIT = 64 * 1024;

/** Where a URL goes, parsed once: a `URL` per call costs about a microsecond. */
interface Destination {
  pool: Pool;
  /** Null without a connection cap: nothing waits. */
  queue: ConnectionQueue | null;
  origin: string;
  path: string;
}

/**
 * URLs may carry a client's model name (some providers put it in the path), so their number is not bounded by the
 * config: past this many the table starts over.
 */
const MAX_DESTINATIONS = 1024;

export class UpstreamClient {
  readonly #pools = new Map<string, Pool>();
  readonly #queues = new Map<string, ConnectionQueue>();
  readonly #destinations = new Map<string, Destination>();
  readonly #options: UpstreamOptions;
  readonly #logger: Logger;

  constructor(options: UpstreamOptions, logger: Logger) {
    this.#options = options;
    this.#logger = logger;
  }

  #pool(origin: string): Pool {
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

  /** The origin's queue for calls beyond the connection cap; null when there is no cap. */
  #queue(origin: string): ConnectionQueue | null {
    const cap = this.#options.connections_per_origin;
    if (cap === null) return null;
    let queue = this.#queues.get(origin);
    if (queue === undefined) {
      queue = new ConnectionQueue(origin, cap, this.#options.queue_timeout_ms, this.#logger);
      this.#queues.set(origin, queue);
    }
    return queue;
  }

  /** Each capped origin's queue as it is now, for metrics. */
  queueStats(): QueueStats[] {
    return [...this.#queues.values()].map((q) => q.stats());
  }

  /** Resolves with the response head; with `mapError`, an error status rejects instead. */
  request(req: UpstreamRequest): Promise<UpstreamResponse> {
    try {
      const to = this.#destination(req.url);
      const dispatch: Dispatcher.DispatchOptions = {
        origin: to.origin,
        path: to.path,
        method: req.method,
        headers: withUpstreamHeaders(req),
        body: req.body ?? null,
        headersTimeout: req.timeouts?.first_byte_timeout_ms ?? this.#options.first_byte_timeout_ms,
        bodyTimeout: req.timeouts?.idle_timeout_ms ?? this.#options.idle_timeout_ms,
      };
      const call = new UpstreamCall(req, to.pool, dispatch, to.queue, this.#options.max_buffered_answer_bytes);
      call.send();
      return call.head;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  #destination(url: string): Destination {
    let to = this.#destinations.get(url);
    if (to === undefined) {
      const parsed = new URL(url);
      to = { pool: this.#pool(parsed.origin), queue: this.#queue(parsed.origin), origin: parsed.origin, path: parsed.pathname + parsed.search };
      if (this.#destinations.size >= MAX_DESTINATIONS) this.#destinations.clear();
      this.#destinations.set(url, to);
    }
    return to;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((p) => p.close().catch(() => p.destroy())));
    this.#pools.clear();
    this.#queues.clear();
    this.#destinations.clear();
  }
}

/** One upstream exchange: undici's dispatch handler, the promise of the response head, the body. */
class UpstreamCall implements Dispatcher.DispatchHandler, WaitingCall {
  readonly head: Promise<UpstreamResponse>;
  readonly provider: string;
  readonly #signal: Cancellation | AbortSignal | undefined;
  readonly #body: UpstreamBody;
  readonly #mapError: ErrorMapper | undefined;
  readonly #context: { queuedMs: number } | undefined;
  readonly #pool: Pool;
  readonly #dispatch: Dispatcher.DispatchOptions;
  readonly #queue: ConnectionQueue | null;
  #resolve!: (res: UpstreamResponse) => void;
  #reject!: (err: unknown) => void;
  #started = false;
  #controller: Dispatcher.DispatchController | null = null;
  /** Set while the call waits in the origin's queue. */
  #leaveQueue: (() => void) | null = null;
  readonly #onAbort = (): void => {
    if (this.#leaveQueue !== null) {
      this.#leaveQueue();
      this.#leaveQueue = null;
      this.#detach();
      this.#reject(abortError(this.#signal));
    } else {
      this.#controller?.abort(abortError(this.#signal));
    }
  };

  constructor(req: UpstreamRequest, pool: Pool, dispatch: Dispatcher.DispatchOptions, queue: ConnectionQueue | null, maxBuffered: number) {
    this.provider = req.provider;
    this.#signal = req.signal;
    this.#mapError = req.mapError;
    this.#context = req.context;
    this.#pool = pool;
    this.#dispatch = dispatch;
    this.#queue = queue;
    this.#body = new UpstreamBody(req.provider, maxBuffered);
    this.head = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    const signal = req.signal;
    if (signal instanceof Cancellation) signal.onAbort(this.#onAbort);
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Sends the call, or queues it behind the origin's connection cap. */
  send(): void {
    if (this.#queue === null) {
      this.#pool.dispatch(this.#dispatch, this);
    } else if (this.#signal?.aborted) {
      this.#detach();
      this.#reject(abortError(this.#signal));
    } else {
      this.#leaveQueue = this.#queue.admit(this);
    }
  }

  /** The queue's turn (WaitingCall): a connection is free for this call. */
  start(waitedMs: number): void {
    this.#leaveQueue = null;
    if (this.#context !== undefined) this.#context.queuedMs += waitedMs;
    try {
      this.#pool.dispatch(this.#dispatch, this);
    } catch (err) {
      this.#queue?.release();
      this.#detach();
      this.#reject(err);
    }
  }

  /** The queue time passed (WaitingCall). */
  fail(err: GatewayError, waitedMs: number): void {
    this.#leaveQueue = null;
    if (this.#context !== undefined) this.#context.queuedMs += waitedMs;
    this.#detach();
    this.#reject(err);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    this.#body.attach(controller);
    if (this.#signal?.aborted) controller.abort(abortError(this.#signal));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return;
    this.#started = true;
    if (this.#mapError !== undefined && statusCode >= 400) void this.#rejectMapped(this.#mapError, statusCode, headers);
    else this.#resolve({ statusCode, headers, body: this.#body });
  }

  async #rejectMapped(mapError: ErrorMapper, statusCode: number, headers: IncomingHttpHeaders): Promise<void> {
    let text = '';
    try {
      const bytes = await this.#body.bytes();
      text = bytes.subarray(0, ERROR_BODY_LIMIT).toString('utf8');
    } catch {
      // The status says what happened; a body that breaks off adds nothing.
    }
    try {
      this.#reject(mapError(statusCode, text, retryAfterSeconds(headers['retry-after'])));
    } catch (err) {
      this.#reject(err);
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#body.push(chunk);
  }

  onResponseEnd(): void {
    this.#detach();
    this.#queue?.release();
    this.#body.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.#detach();
    this.#queue?.release();
    const mapped = upstreamError(this.provider, err, this.#signal);
    if (this.#started) this.#body.fail(mapped);
    else this.#reject(mapped);
  }

  #detach(): void {
    const signal = this.#signal;
    if (signal instanceof Cancellation) signal.offAbort(this.#onAbort);
    else signal?.removeEventListener('abort', this.#onAbort);
  }
}

function abortError(signal: Cancellation | AbortSignal | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('The request was aborted', 'AbortError');
}

/** Retry-After as seconds: a number of seconds, or an HTTP date. */
export function retryAfterSeconds(header: string | string[] | undefined): number | null {
  if (typeof header !== 'string' || header === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : null;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** A transport failure as the contract's 502/504; an abort stays an abort for the caller. */
export function upstreamError(provider: string, err: unknown, signal?: Cancellation | AbortSignal): unknown {
  if (signal?.aborted) return err;
  // By brand, not instanceof: a plugin may carry its own copy of the core (dual package).
  if (isGatewayError(err)) return err;
  if (err instanceof undiciErrors.HeadersTimeoutError) return providerTimeout(provider, 'no response headers in time', err);
  if (err instanceof undiciErrors.BodyTimeoutError) return providerTimeout(provider, 'no data in time', err);
  if (err instanceof undiciErrors.ConnectTimeoutError) return providerTimeout(provider, 'connect', err);
  const code = (err as { code?: string }).code;
  return providerFailed(provider, `provider '${provider}' unreachable or connection broken${code ? ` (${code})` : ''}`, err);
}

/** The call's headers plus the ones its request's plugins add (a copy only when there are some). */
function withUpstreamHeaders(req: UpstreamRequest): Record<string, string> {
  const added = req.context?.upstreamHeaders;
  return added ? { ...req.headers, ...added } : req.headers;
}
