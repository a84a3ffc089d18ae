// The request context: one object per request that flows through every stage. Every field
// is set in the constructor so all contexts share one hidden class (a stable shape keeps the
// hot path monomorphic). Plugins add their own typed fields to `locals` by augmenting
// `ContextLocals` (declaration merging), never by adding properties to the context itself.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Cancellation } from './cancellation.js';
import { requestId } from './request-id.js';
import type { GatewayError } from './errors.js';
import type { Target } from './provider.js';
import type { PrimedStream } from './reply.js';
import type { RouteSpec } from './routes.js';
import type { StreamCopy } from './stream/stream-copy.js';
import type { Usage } from './types/usage.js';

export type BudgetPeriod = 'daily' | 'weekly' | 'monthly' | 'total';

/** A spending cap a key carries (the budget plugin enforces it). */
export interface KeyBudget {
  amount_usd: number;
  period: BudgetPeriod;
}

/** Limits a key carries (the ratelimit plugin enforces them); null means no limit. */
export interface KeyRateLimit {
  rpm: number | null;
  tpm: number | null;
  concurrent: number | null;
}

/** Who is calling: set by the auth stage. */
export interface Principal {
  /** `master`, or the id of an API key. */
  id: string;
  name: string;
  kind: 'master' | 'key';
  admin: boolean;
  labels: Record<string, string>;
  /** Model ids (or `<prefix>/*` patterns) this credential may call; null means all. */
  allowedModels: string[] | null;
  /** Absent or null: no budget of the key's own. */
  budget?: KeyBudget | null;
  /** Absent or null: no rate limit of the key's own. */
  rateLimit?: KeyRateLimit | null;
}

/** One try at a provider (several with failover). */
export interface Attempt {
  provider: string;
  model: string;
  status: number;
  error: string | null;
  duration_ms: number;
  /** Of duration_ms, the time the attempt's upstream calls waited for a free connection (0 without a connection cap). */
  queued_ms: number;
}

/** What the price stage computed; the pricing plugin defines the full shape. */
export interface CostResult {
  total_usd: string | null;
  source: string;
  [detail: string]: unknown;
}

/** Per-request fields of plugins, declared by each plugin through module augmentation. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ContextLocals {}

export class RequestContext {
  readonly id: string;
  /** Wall-clock start (ms since epoch). */
  readonly startedAt: number;
  /** Monotonic start (performance.now() ms), for durations. */
  readonly startMono: number;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly route: RouteSpec;
  readonly params: Record<string, string>;
  readonly path: string;
  /** Aborted when the client goes away or the gateway gives up: upstream calls take it as their signal. */
  readonly abort: Cancellation;

  principal: Principal | null = null;
  /**
   * Attribution labels: the key's labels plus those read from request headers. A header with
   * a delimiter yields several values for one label (usage by label counts each value).
   */
  labels: Record<string, string | string[]> = {};
  /** The body bytes as received (json routes). */
  rawBody: Buffer | null = null;
  /** The parsed JSON body (json routes). */
  body: Record<string, unknown> | null = null;
  /** The model id the client asked for. */
  model: string | null = null;
  stream = false;
  target: Target | null = null;
  attempts: Attempt[] = [];

  /** The status sent to the client (499 when it went away first). */
  status = 0;
  /** The response body sent (a stream folded into its final object). */
  responseBody: unknown = null;
  usage: Usage | null = null;
  /**
   * The stream was cut before its end (its client went away, or the shutdown deadline came):
   * `usage` holds only what the provider reported until then, and the cost is partial.
   */
  partial = false;
  cost: CostResult | null = null;
  error: GatewayError | null = null;
  cacheHit = false;
  /** The W3C trace id of the request's span, set by a tracing plugin; log taps record it. */
  traceId: string | null = null;
  /**
   * Headers a plugin adds to the provider call (a tracing plugin's `traceparent`), never a
   * client's: the passthrough proxy and the providers' upstream calls send them.
   */
  upstreamHeaders: Readonly<Record<string, string>> | null = null;
  /**
   * Set by a stage before the reply is sent when it wants the stream kept as the client's format
   * framed it (to send it again later); the relay fills it, a log tap reads it.
   */
  streamCopy: StreamCopy | null = null;
  /**
   * @internal The stream `invoke` primed last, until a reply is sent: one the reply does not send
   * is cancelled then, or at the next `invoke` (core/pipeline.ts), not held open.
   */
  primed: PrimedStream | null = null;
  /** ms from start to the first response byte. */
  firstByteMs: number | null = null;
  /** ms the request's upstream calls waited for a free connection to their provider (all attempts; 0 without a connection cap). */
  queuedMs = 0;
  /** ms from start to the end of the response. */
  durationMs: number | null = null;
  readonly locals: ContextLocals = {} as ContextLocals;
  /** @internal The server's slot for the request while it is in flight (core/in-flight.ts). */
  inFlightSlot = -1;

  constructor(req: IncomingMessage, res: ServerResponse, route: RouteSpec, params: Record<string, string>, path: string) {
    this.startedAt = Date.now();
    this.id = requestId(this.startedAt);
    this.startMono = performance.now();
    this.req = req;
    this.res = res;
    this.route = route;
    this.params = params;
    this.path = path;
    this.abort = new Cancellation();
  }

  /** Milliseconds since the request started. */
  elapsed(): number {
    return performance.now() - this.startMono;
  }

  /**
   * Lets go of everything the request held; the server calls it once the request's work is
   * over (after the log stage), and nothing may read the context after that. Why: a context
   * that was in flight during a full collection has been moved to the old generation, and until
   * the next full collection every young object it still points to (its bodies, node's request
   * and response, what they point to in turn) is kept alive by each scavenge and promoted. Under
   * load that compounds into megabytes promoted per scavenge and scavenges four times as long
   * (docs/architecture.md, "A finished request lets go").
   */
  release(): void {
    const held = this as unknown as Released;
    held.req = null;
    held.res = null;
    held.params = RELEASED;
    held.locals = RELEASED;
    this.principal = null;
    this.labels = RELEASED;
    this.rawBody = null;
    this.body = null;
    this.target = null;
    this.attempts = NO_ATTEMPTS as Attempt[];
    this.responseBody = null;
    this.usage = null;
    this.cost = null;
    this.error = null;
    this.upstreamHeaders = null;
    this.streamCopy = null;
    this.primed = null;
  }
}

/** What a released context points to instead of its request's objects. */
const RELEASED = Object.freeze({}) as Record<string, never>;
const NO_ATTEMPTS: readonly Attempt[] = Object.freeze([]);

/** The fields that are read-only to plugins, as release() clears them. */
interface Released {
  req: null;
  res: null;
  params: Record<string, never>;
  locals: Record<string, never>;
}
