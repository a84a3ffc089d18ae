// OpenTelemetry traces: a server span per model request (child of the client's `traceparent`),
// a client span per provider attempt, GenAI semantic-convention attributes plus the gateway's
// own, exported over OTLP/HTTP by a batch processor so no request waits on an export.
// The trace id goes on the request context, where the audit entry picks it up. No global tracer
// or context manager is installed: a request's spans are written whole when it ends
// (request-spans.ts), so nothing is held open or parented through its awaits.
import type { SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { ORDER } from '../../core/stages.js';
import { OtlpBatchProcessor } from './batch-processor.js';
import { batchLimits, exportHeaders, exportTimeoutMs, sampler, serviceName, tracesEndpoint } from './otel-env.js';
import { OtlpJsonExporter } from './otlp-exporter.js';
import { RequestTracer } from './request-spans.js';
import { tracingSchema } from './schema.js';
import type { TracingOptions } from './schema.js';

const NAME = 'tracing';

export interface TracingService {
  /** Another destination for the spans (an in-memory exporter in tests); during setup only. Spans come finished: onEnd is called, never onStart. */
  addSpanProcessor(processor: SpanProcessor): void;
}

declare module '../../core/plugin.js' {
  interface GatewayServices {
    tracing: TracingService;
  }
}

export default definePlugin<TracingOptions>({
  name: NAME,
  schema: tracingSchema,
  setup(gw, options) {
    const env = gw.loaded.env;
    const processors: SpanProcessor[] = [];
    if (options.exporter === 'otlp') {
      const url = tracesEndpoint(env);
      const exporter = new OtlpJsonExporter({ url, headers: exportHeaders(env), timeoutMs: exportTimeoutMs(env), logger: gw.logger });
      processors.push(new OtlpBatchProcessor(exporter, batchLimits(env), gw.logger));
      gw.describe('traces', `OTLP/HTTP to ${url}`);
    }
    gw.services.tracing = { addSpanProcessor: (p) => processors.push(p) };
    const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName(env) });
    // The processors' list as it is after every setup: the plugins set up after this one add theirs.
    const spans = new RequestTracer(sampler(env), processors, { resource, scope: { name: 'sluice' } }, options.propagate_translated);
    gw.providers.wrapHandlers(spans.wrap);
    // Flushes what the batch holds before the process exits.
    gw.lifecycle.close.tapPromise(NAME, async () => {
      await Promise.all(processors.map((p) => p.shutdown()));
    });

    gw.stages.auth.tap({ name: NAME, stage: ORDER.FIRST }, (ctx: RequestContext) => spans.start(ctx));
    gw.stages.log.tap({ name: NAME, stage: ORDER.LAST }, (ctx: RequestContext) => spans.finish(ctx));
  },
});
