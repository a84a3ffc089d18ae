// Prometheus metrics: `GET /metrics` (or a port of its own, optionally behind a bearer token)
// serves the gateway's request metrics, process and event-loop metrics, and whatever other
// plugins register on prom-client's default registry (the audit queue, a breaker gauge).
// Everything is read from the request context at the log stage; docs/observability.md lists
// every series.
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics, register } from 'prom-client';
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';
import { Attribution } from './attribution.js';
import { createGatewayMetrics } from './gateway-metrics.js';
import { MetricsServer } from './metrics-server.js';
import { registerUpstreamQueueMetrics } from './upstream-queue-metrics.js';
import { RequestRecorder } from './request-recorder.js';
import { CONTENT_TYPE, checkBearer, scrape } from './scrape.js';
import { metricsSchema } from './schema.js';
import type { MetricsOptions } from './schema.js';

const NAME = 'metrics';
const IN_FLIGHT = 1;
const STREAMING = 2;

export interface MetricsService {
  /** The gateway's own registry (its request series); process-wide metrics go on prom-client's default one. */
  registry: Registry;
  /** The metrics port's address when the metrics have a port of their own, once listening. */
  address(): AddressInfo | null;
}

declare module '../../core/plugin.js' {
  interface GatewayServices {
    metrics: MetricsService;
  }
}

declare module '../../core/context.js' {
  interface ContextLocals {
    /** What the metrics counted as started for this request (IN_FLIGHT | STREAMING). */
    metricsStarted?: number;
  }
}

export default definePlugin<MetricsOptions>({
  name: NAME,
  schema: metricsSchema,
  setup(gw, options) {
    const registry = new Registry();
    const attribution = new Attribution(options);
    const recorder = new RequestRecorder(createGatewayMetrics(registry, attribution.names), attribution, options.max_models);
    registerUpstreamQueueMetrics(registry, () => gw.upstream.queueStats());
    // Once per process: a second gateway in the same process (tests) shares them.
    if (register.getSingleMetric('process_cpu_user_seconds_total') === undefined) collectDefaultMetrics();

    const serve = async (authorization: string | undefined) => {
      if (options.bearer_token !== null) checkBearer(authorization, options.bearer_token);
      return { contentType: CONTENT_TYPE, body: await scrape(registry) };
    };
    let address: AddressInfo | null = null;
    gw.services.metrics = { registry, address: () => address };

    if (options.port === null) {
      gw.addRoute({
        method: 'GET',
        path: options.path,
        // The bearer token, not the gateway's keys, guards the metrics: a scraper holds no API key.
        access: 'public',
        handler: async (ctx) => {
          const scraped = await serve(ctx.req.headers.authorization);
          ctx.res.writeHead(200, { 'content-type': scraped.contentType });
          ctx.res.end(scraped.body);
        },
      });
      gw.describe('metrics', options.path);
    } else {
      const server = new MetricsServer(options.path, (req) => serve(req.headers.authorization), gw.logger);
      const host = options.host ?? gw.loaded.config.server.host;
      gw.lifecycle.ready.tapPromise(NAME, async () => {
        address = await server.listen(options.port!, host);
        gw.describe('metrics', `http://${host}:${address.port}${options.path}`);
      });
      gw.lifecycle.close.tapPromise(NAME, () => server.close());
    }

    gw.stages.auth.tap({ name: NAME, stage: ORDER.FIRST }, (ctx: RequestContext) => {
      if (ctx.route.operation === null) return;
      ctx.locals.metricsStarted = IN_FLIGHT;
      recorder.started();
    });
    gw.stages.route.tap({ name: NAME, stage: ORDER.FIRST }, (ctx: RequestContext) => {
      if (!ctx.stream) return;
      ctx.locals.metricsStarted = IN_FLIGHT | STREAMING;
      recorder.streamStarted();
    });
    gw.stages.log.tap({ name: NAME, stage: ORDER.LAST }, (ctx: RequestContext) => {
      const started = ctx.locals.metricsStarted ?? 0;
      recorder.finished(ctx, (started & IN_FLIGHT) !== 0, (started & STREAMING) !== 0);
    });
  },
});
