// node:http in front of the pipeline: route lookup, the request context, in-flight tracking
// and graceful shutdown (stop accepting, answer 503 on kept-alive connections, let in-flight
// requests and streams finish within the configured time, then close).
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { answerClientError } from './client-error.js';
import { RequestContext } from './context.js';
import { InFlight } from './in-flight.js';
import { cutByShutdown, methodNotAllowed, routeNotFound, shuttingDown } from './errors.js';
import { sendError } from './respond.js';
import type { Pipeline } from './pipeline.js';
import type { RouteSpec, RouteTable } from './routes.js';

const netClose = NetServer.prototype.close;

/**
 * The accept queue. Node's default of 511 drops the connections of a burst beyond it (a thousand
 * clients opening streams at once while the first requests are being forwarded), which their
 * TCP tries again only a second later. The kernel caps it at net.core.somaxconn (4096 on Linux
 * since 5.4).
 */
const LISTEN_BACKLOG = 4096;

const FALLBACK_ROUTE: RouteSpec = Object.freeze({ method: '*', path: '*', access: 'public', operation: null, body: 'none', streamFormat: null, handler: null });

export class GatewayServer {
  readonly server: Server;
  readonly #routes: RouteTable;
  readonly #pipeline: Pipeline;
  #draining = false;
  #idle: (() => void) | null = null;
  readonly #inFlight = new InFlight();
  /** Called by the pipeline when a request's work is over (bound once, not per request). */
  readonly #settled = (ctx: RequestContext): void => {
    this.#inFlight.delete(ctx.inFlightSlot);
    ctx.release();
    if (this.#inFlight.size === 0 && this.#idle) this.#idle();
  };

  constructor(routes: RouteTable, pipeline: Pipeline, keepAliveTimeoutMs: number) {
    this.#routes = routes;
    this.#pipeline = pipeline;
    this.server = createServer({ keepAliveTimeout: keepAliveTimeoutMs }, (req, res) => this.#handle(req, res));
    this.server.on('clientError', answerClientError);
  }

  get draining(): boolean {
    return this.#draining;
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
        this.server.off('error', reject);
        resolve(this.server.address() as AddressInfo);
      });
    });
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    const match = this.#routes.match(method, path);
    if (match === null || match === 'method_not_allowed') {
      const ctx = new RequestContext(req, res, FALLBACK_ROUTE, {}, path);
      if (match === null) sendError(ctx, routeNotFound(method, path));
      else sendError(ctx, methodNotAllowed(method, path), ['allow', this.#routes.allowedMethods(path).join(', ')]);
      return;
    }
    const spec = match.spec;
    const ctx = new RequestContext(req, res, spec, match.params, path);
    if (this.#draining) {
      sendError(ctx, shuttingDown(), ['connection', 'close']);
      return;
    }
    // The core writes every response of an operation route, x-request-id in its head
    // (respond.ts), but a raw-body route's plugin takes the request over, and a handler may
    // write its own response: for those it is set now.
    if (spec.operation === null || spec.body === 'raw') res.setHeader('x-request-id', ctx.id);
    ctx.inFlightSlot = this.#inFlight.add(ctx);
    // A client that goes away before the response is complete cancels the upstream call.
    res.on('close', () => {
      if (!res.writableFinished) ctx.abort.abort();
    });
    if (spec.operation !== null) void this.#pipeline.runOperation(ctx, this.#settled);
    else void this.#pipeline.runHandler(ctx, this.#settled);
  }

  /**
   * Stop accepting, wait up to `timeoutMs` for in-flight requests, then cut what is left.
   * Kept-alive connections stay open for `graceMs` at least (and while requests are in flight):
   * closing one the moment SIGTERM came resets a request the client had just sent on it, while
   * an open one gets that request answered 503 with `connection: close` (#handle), which a
   * client or load balancer retries elsewhere.
   */
  async drain(timeoutMs: number, graceMs: number): Promise<void> {
    this.#draining = true;
    // net's close stops accepting; http's would also close every idle connection at once.
    const closed = new Promise<void>((resolve) => netClose.call(this.server, () => resolve()));
    // Answers not yet begun tell their clients to take the next request elsewhere.
    this.#inFlight.forEach((ctx) => {
      if (!ctx.res.headersSent) ctx.res.shouldKeepAlive = false;
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => { timer = setTimeout(resolve, timeoutMs); });
    const grace = new Promise<void>((resolve) => setTimeout(resolve, Math.min(graceMs, timeoutMs)));
    const idle = this.#inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => { this.#idle = resolve; });
    await Promise.race([Promise.all([idle, grace]), deadline]);
    clearTimeout(timer);
    if (this.#inFlight.size > 0) {
      // Whatever is still running past the deadline is aborted; its client is told why (an
      // answer, or a stream's last event), and its price and log stages still run, so the call is
      // recorded and its spend kept.
      const cut = cutByShutdown();
      this.#inFlight.forEach((ctx) => ctx.abort.abort(cut));
      await Promise.race([idle, new Promise((r) => setTimeout(r, 2000))]);
    }
    // http's close now: it closes the idle connections and stops node's connection-checking timer.
    this.server.close();
    this.server.closeAllConnections();
    await closed;
  }
}
