// Test-only plugin: failover in the `forward` stage. It calls the routed target through the core's
// invoke(); when that fails with a retryable error, nothing has reached the client yet (invoke
// settles before a stream's first byte is written), so it calls the fallback target with the same
// request. A failure after the first byte is the relay's to report: it cannot be retried.
import { isGatewayError } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { FALLBACK_SCHEMA, fallbackTarget } from './fallback-target.js';

const NAME = 'test-failover';

export default definePlugin<{ fallback: string }>({
  name: NAME,
  dependsOn: ['router'],
  schema: FALLBACK_SCHEMA,
  setup(gw, options) {
    const fallback = fallbackTarget(gw, NAME, options.fallback);
    gw.stages.forward.tapPromise(NAME, async (ctx) => {
      try {
        return await gw.invoke(ctx, ctx.target!);
      } catch (err) {
        if (ctx.abort.aborted || !isGatewayError(err) || !err.retryable) throw err;
        return gw.invoke(ctx, fallback());
      }
    });
  },
});
