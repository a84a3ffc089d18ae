// The one http-proxy-3 instance of the gateway, made at its first passthrough call. It answers itself
// (`selfHandleResponse`), so the gateway decides which response headers go out and observes
// the body in passing; the path and the Host header come from the target (`ignorePath`,
// `changeOrigin`). Its events are shared by all calls: each is handed to the call of its
// request, found in a WeakMap, so no listener is added to the proxy per request.
import type { IncomingMessage } from 'node:http';
import { createProxyServer } from 'http-proxy-3';
import type { ProxyServer } from 'http-proxy-3';
import type { RequestContext } from '../../core/context.js';
import type { ProxiedCall } from './proxied-call.js';

export class PassthroughProxy {
  readonly #proxy: ProxyServer;
  readonly #calls = new WeakMap<IncomingMessage, ProxiedCall>();

  constructor() {
    const proxy = createProxyServer({ selfHandleResponse: true, changeOrigin: true, ignorePath: true, xfwd: false });
    proxy.on('proxyReq', (proxyReq, req, _res, _options, socket) => this.#calls.get(req)?.onRequest(proxyReq, socket));
    proxy.on('proxyRes', (proxyRes, req) => this.#calls.get(req)?.onResponse(proxyRes));
    proxy.on('error', (err, req) => this.#calls.get(req)?.onError(err));
    // The client's connection reset while its request was on the way: the proxy already
    // destroyed the outgoing request; the call ends as an abort.
    proxy.on('econnreset', (err, req) => this.#calls.get(req)?.onError(err));
    this.#proxy = proxy;
  }

  /** Proxies the request; resolves when the response ended, rejects when none could be started. */
  async forward(ctx: RequestContext, call: ProxiedCall): Promise<void> {
    const req = ctx.req;
    this.#calls.set(req, call);
    try {
      try {
        this.#proxy.web(req, ctx.res, call.options);
      } catch (err) {
        call.onError(err);
      }
      await call.done;
    } finally {
      this.#calls.delete(req);
    }
  }
}
