// node:http in front of the pipeline: route lookup, the request context, in-flight tracking
// and graceful shutdown (stop accepting, answer 503 on kept-alive connections, let in-flight
// requests and streams finish within the configured time, then close).
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestContext } from './context.js';
import { methodNotAllowed, routeNotFound, shuttingDown } from './errors.js';
import type { GatewayError } from './errors.js';
import type { Pipeline } from './pipeline.js';
import type { RouteSpec, RouteTable } from './routes.js';

const FALLBACK_ROUTE: RouteSpec = Object.freeze({ method: '*', path: '*', access: 'public', operation: null, body: 'none', streamFormat: null, handler: null });

export class GatewayServer {
  readonly server: Server;
  readonly #routes: RouteTable;
  readonly #pipeline: Pipeline;
  #inFlight = 0;
  #draining = false;
  #idle: (() => void) | null = null;
  readonly #active = new Set<RequestContext>();

  constructor(routes: RouteTable, pipeline: Pipeline, keepAliveTimeoutMs: number) {
    this.#routes = routes;
    this.#pipeline = pipeline;
    this.server = createServer({ keepAliveTimeout: keepAliveTimeoutMs }, (req, res) => this.#handle(req, res));
  }

  get draining(): boolean {
    return this.#draining;
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
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
      res.setHeader('x-request-id', ctx.id);
      if (match !== null) res.setHeader('allow', this.#routes.allowedMethods(path).join(', '));
      this.#reject(ctx, match === null ? routeNotFound(method, path) : methodNotAllowed(method, path));
      return;
    }
    const ctx = new RequestContext(req, res, match.spec, match.params, path);
    res.setHeader('x-request-id', ctx.id);
    if (this.#draining) {
      res.setHeader('connection', 'close');
      this.#reject(ctx, shuttingDown());
      return;
    }
    this.#inFlight++;
    this.#active.add(ctx);
    // A client that goes away before the response is complete cancels the upstream call.
    res.once('close', () => {
      if (!res.writableFinished) ctx.abort.abort();
    });
    const run = match.spec.operation !== null ? this.#pipeline.runOperation(ctx) : this.#pipeline.runHandler(ctx);
    void run.finally(() => this.#done(ctx));
  }

  #reject(ctx: RequestContext, err: GatewayError): void {
    ctx.req.resume();
    const res = ctx.res;
    const body = JSON.stringify(err.toEnvelope());
    res.statusCode = err.status;
    if (err.retryAfter !== null) res.setHeader('retry-after', String(err.retryAfter));
    res.setHeader('content-type', 'application/json');
    res.setHeader('content-length', Buffer.byteLength(body));
    res.end(body);
  }

  #done(ctx: RequestContext): void {
    this.#active.delete(ctx);
    if (--this.#inFlight === 0 && this.#idle) this.#idle();
  }

  /** Stop accepting, wait up to `timeoutMs` for in-flight requests, then cut what is left. */
  async drain(timeoutMs: number): Promise<void> {
    this.#draining = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    if (this.#inFlight > 0) {
      const idle = new Promise<void>((resolve) => { this.#idle = resolve; });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => { timer = setTimeout(resolve, timeoutMs); });
      await Promise.race([idle, timeout]);
      clearTimeout(timer);
      // Whatever is still running past the deadline is aborted; its price and log stages still
      // run, so its audit entry and spend are kept.
      for (const ctx of this.#active) ctx.abort.abort();
      if (this.#inFlight > 0) await Promise.race([idle, new Promise((r) => setTimeout(r, 2000))]);
    }
    this.server.closeAllConnections();
    await closed;
  }
}
