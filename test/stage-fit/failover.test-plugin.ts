// Test-only plugin: failover in the `forward` stage. It calls the routed target through the core's
// invoke(); when that fails with a retryable error, nothing has reached the client yet (invoke
// settles before a stream's first byte is written), so it calls the fallback target with the same
// request. A failure after the first byte is the relay's to report: it cannot be retried.
import { isGatewayError } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import type { Target } from '../../core/provider.js';

const NAME = 'test-failover';

export default definePlugin<{ fallback: string }>({
  name: NAME,
  dependsOn: ['router'],
  schema: { type: 'object', additionalProperties: false, required: ['fallback'], properties: { fallback: { type: 'string', pattern: '^[^/]+/.+$' } } },
  setup(gw, options) {
    let fallback: Target | null = null;
    gw.lifecycle.ready.tap(NAME, () => {
      const slash = options.fallback.indexOf('/');
      const provider = gw.providers.get(options.fallback.slice(0, slash));
      if (provider === undefined) throw new Error(`fallback '${options.fallback}': no such provider`);
      fallback = { provider, model: options.fallback.slice(slash + 1), id: options.fallback, metadata: gw.services.models?.metadata(options.fallback) ?? null };
    });
    gw.stages.forward.tapPromise(NAME, async (ctx) => {
      try {
        return await gw.invoke(ctx, ctx.target!);
      } catch (err) {
        if (fallback === null || ctx.abort.aborted || !isGatewayError(err) || !err.retryable) throw err;
        return gw.invoke(ctx, fallback);
      }
    });
  },
});
