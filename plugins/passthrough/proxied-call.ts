// One passthrough call in flight, from the proxy's first event to the end of the response.
// Its order of events is what keeps the promises of the plugin:
// - the upload starts flowing only once the outgoing headers are edited (a chunk written
//   earlier would send them as the client sent them, credentials included);
// - every chunk, both ways, is observed in passing (captured up to the limit, parsed for
//   usage) and forwarded in the same tick, with the pipes' backpressure;
// - one timer at a time watches the phase the call is in: connect, first byte, idle between
//   chunks;
// - before the response started, a failure becomes the contract's 502/504 (written by the
//   core); after, the response is cut, so the client never takes a broken body for a whole one.
import type { ModelMetadata } from '../../core/types/models.js';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline } from 'node:stream';
import type { ServerOptions } from 'http-proxy-3';
import type { RequestContext } from '../../core/context.js';
import { providerFailed, providerStatusError, providerTimeout, toGatewayError } from '../../core/errors.js';
import type { GatewayError } from '../../core/errors.js';
import { upstreamError } from '../../core/http-client.js';
import { bodyKind } from './body-kind.js';
import type { ByteCapture } from './byte-capture.js';
import type { BodyRecord, PassthroughLocals } from './locals.js';
import { ObservingStream } from './observing-stream.js';
import type { PassthroughRoute } from './passthrough-targets.js';
import type { RequestHeaderPolicy } from './request-headers.js';
import { RequestBody } from './request-body.js';
import { requestModel } from './request-model.js';
import { ResponseBody } from './response-body.js';
import type { Activity } from './response-body.js';
import { copyResponseHeaders, setHeaderIfValid } from './response-headers.js';

export interface CallSettings {
  captureLimit: number;
  connectTimeoutMs: number;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  headers: RequestHeaderPolicy;
  /** Metadata (prices) of a model id (`openai/gpt-4o-mini`), or null. */
  modelMetadata(id: string): ModelMetadata | null;
}

/**
 * http-proxy-3 announces the outgoing request (the `proxyReq` event, where the headers are
 * edited and the upload starts) only when it carries no `expect` header. The gateway answered
 * the client's 100-continue itself, so the header is blanked here and removed with the others.
 */
const BLANK_EXPECT = Object.freeze({ expect: '' });

export class ProxiedCall implements Activity {
  /** Resolves when the response ended (or was cut); rejects when none could be started. */
  readonly done: Promise<void>;
  /** For `proxy.web`: this call's target, connection pool and upload stream. */
  readonly options: ServerOptions;
  readonly #ctx: RequestContext;
  readonly #route: PassthroughRoute;
  readonly #locals: PassthroughLocals;
  readonly #settings: CallSettings;
  readonly #request: RequestBody;
  readonly #upload: ObservingStream;
  readonly #started = performance.now();
  #proxyReq: ClientRequest | null = null;
  #proxyRes: IncomingMessage | null = null;
  #response: ResponseBody | null = null;
  #timer: NodeJS.Timeout | null = null;
  #waitingFor = 'connect';
  #timedOut: GatewayError | null = null;
  /** The request's model as the provider knows it; undefined until looked for. */
  #model: string | null | undefined = undefined;
  #settled = false;
  #resolve: () => void = noop;
  #reject: (err: unknown) => void = noop;

  constructor(ctx: RequestContext, route: PassthroughRoute, locals: PassthroughLocals, settings: CallSettings) {
    this.#ctx = ctx;
    this.#route = route;
    this.#locals = locals;
    this.#settings = settings;
    this.#request = new RequestBody(settings.captureLimit);
    this.#upload = new ObservingStream(this.#request);
    this.options = {
      target: locals.url,
      agent: route.agent,
      buffer: this.#upload,
      headers: ctx.req.headers.expect === undefined ? undefined : BLANK_EXPECT,
    };
    this.done = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    ctx.abort.signal.addEventListener('abort', this.#onAbort, { once: true });
    this.#arm(settings.connectTimeoutMs, 'connect');
  }

  /** The outgoing request got its socket; none of it has been sent yet. */
  onRequest(proxyReq: ClientRequest, socket: Socket): void {
    if (this.#settled) {
      proxyReq.destroy();
      return;
    }
    this.#proxyReq = proxyReq;
    try {
      this.#settings.headers.apply(proxyReq, this.#ctx.req.headers, this.#route.authHeaders);
      // The gateway's own (a trace context): they replace a client's header of the same name.
      const own = this.#ctx.upstreamHeaders;
      if (own !== null) for (const name in own) proxyReq.setHeader(name, own[name]!);
    } catch (err) {
      // A credential node refuses as a header value (a stray newline in the config): thrown
      // here it would take the process down; as the request's error it is this call's 502.
      proxyReq.destroy(err as Error);
      return;
    }
    if (socket.connecting) socket.once('connect', this.#onConnect);
    else this.#onConnect();
    this.#ctx.req.pipe(this.#upload);
  }

  /** The provider's status and headers arrived: pass them on, then stream the body through. */
  onResponse(proxyRes: IncomingMessage): void {
    if (this.#settled) {
      proxyRes.destroy();
      return;
    }
    const status = proxyRes.statusCode ?? 0;
    if (status < 100 || status > 999) {
      // node would throw writing it, from inside the proxy's event; it is a broken answer.
      proxyRes.destroy();
      const name = this.#route.provider.name;
      this.#settle(providerFailed(name, `provider '${name}' answered with the invalid status ${status}`));
      return;
    }
    const ctx = this.#ctx;
    const res = ctx.res;
    const kind = bodyKind(proxyRes.headers);
    this.#proxyRes = proxyRes;
    this.#response = new ResponseBody(kind, this.#route.dialect, this.#settings.captureLimit, this);
    this.#arm(this.#settings.idleTimeoutMs, 'no data in time');
    ctx.status = status;
    ctx.stream = kind === 'sse';
    ctx.firstByteMs = ctx.elapsed();
    // The provider's reason phrase is not passed: node would throw on one it finds invalid.
    res.statusCode = status;
    copyResponseHeaders(proxyRes, res);
    res.setHeader('x-gateway-provider', this.#route.provider.name);
    // The upload is usually over by now; when it is not, the model is known only at the end.
    if (this.#request.complete) this.#noteModel();
    if (typeof this.#model === 'string') setHeaderIfValid(res, 'x-gateway-model', this.#model);
    // A stream's first event may be long in coming: the client learns the status right away.
    res.flushHeaders();
    pipeline(proxyRes, new ObservingStream(this.#response), res, this.#onPiped);
  }

  /** The proxy failed: connecting, sending the upload, or waiting for the response. */
  onError(err: unknown): void {
    // Once the response streams, its pipeline sees the same failure and reports it.
    if (this.#settled || this.#response !== null) return;
    if (this.#ctx.abort.signal.aborted) return this.#settle(err);
    this.#settle(this.#timedOut ?? toGatewayError(upstreamError(this.#route.provider.name, err)));
  }

  /** Activity: a chunk of the response went through. */
  touch(): void {
    this.#timer?.refresh();
  }

  readonly #onConnect = (): void => {
    if (!this.#settled && this.#response === null) this.#arm(this.#settings.firstByteTimeoutMs, 'no response headers in time');
  };

  readonly #onTimeout = (): void => {
    if (this.#settled) return;
    const err = providerTimeout(this.#route.provider.name, this.#waitingFor);
    this.#timedOut = err;
    // Destroying the stream makes it report the error through the path that is listening.
    if (this.#proxyRes !== null) this.#proxyRes.destroy(err);
    else if (this.#proxyReq !== null) this.#proxyReq.destroy(err);
    else this.#settle(err);
  };

  readonly #onAbort = (): void => {
    if (this.#settled) return;
    // Cancels the upstream request (and, mid-response, ends the pipeline, which settles).
    this.#proxyReq?.destroy();
    if (this.#response === null) this.#settle(new Error('the client went away before the provider answered'));
  };

  readonly #onPiped = (err: NodeJS.ErrnoException | null): void => {
    if (err && !this.#ctx.abort.signal.aborted) this.#ctx.error = this.#timedOut ?? toGatewayError(upstreamError(this.#route.provider.name, err));
    this.#settle(null);
  };

  #arm(ms: number, waitingFor: string): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#waitingFor = waitingFor;
    this.#timer = setTimeout(this.#onTimeout, ms);
  }

  #settle(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#ctx.abort.signal.removeEventListener('abort', this.#onAbort);
    if (error !== null) {
      const req = this.#ctx.req;
      req.unpipe(this.#upload);
      // The rest of the upload is read and dropped, so the error answer can still be delivered.
      req.resume();
    }
    this.#record(error);
    if (error === null) this.#resolve();
    else this.#reject(error);
  }

  /** What the price and log stages read. */
  #record(error: unknown): void {
    const ctx = this.#ctx;
    const provider = this.#route.provider.name;
    this.#noteModel();
    ctx.rawBody = this.#request.capture.bytes();
    this.#locals.request = bodyRecord(this.#request.capture, this.#request.complete);
    const response = this.#response;
    let status: number;
    if (response !== null) {
      const outcome = response.outcome();
      ctx.responseBody = outcome.body;
      ctx.usage = outcome.usage;
      this.#locals.response = bodyRecord(response.capture, response.complete);
      status = ctx.status;
      // The answer went to the client as it was; recording it as the provider's error makes
      // the audit show it and pricing charge nothing for it.
      if (status >= 400 && ctx.error === null) ctx.error = providerStatusError(provider, status, `provider '${provider}' answered ${status}`);
    } else {
      status = ctx.abort.signal.aborted ? 499 : toGatewayError(error).status;
    }
    const message = ctx.error?.message ?? (error instanceof Error ? error.message : null);
    // The agent's wait for a socket under a connection cap counts against the connect timeout (docs/passthrough.md).
    ctx.attempts.push({ provider, model: ctx.target!.model, status, error: message, duration_ms: performance.now() - this.#started, queued_ms: 0 });
  }

  /** Once: from the request body when it was kept whole, else from the path. */
  #noteModel(): void {
    if (this.#model !== undefined) return;
    const capture = this.#request.capture;
    const whole = this.#request.complete && !capture.truncated;
    this.#model = requestModel(capture.bytes(), whole, this.#ctx.req.headers['content-type'], this.#locals.url.pathname);
    if (this.#model === null) return;
    const ctx = this.#ctx;
    ctx.model = `${this.#route.provider.name}/${this.#model}`;
    // Once the model is known its prices are too: pricing reads them from the target.
    const metadata = this.#settings.modelMetadata(ctx.model);
    if (metadata !== null) ctx.target = { provider: ctx.target!.provider, model: ctx.target!.model, id: ctx.target!.id, metadata };
  }
}

function bodyRecord(capture: ByteCapture, complete: boolean): BodyRecord {
  return { bytes: capture.total, truncated: capture.truncated, complete };
}

function noop(): void {}
