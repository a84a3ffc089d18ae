// Test-only plugin: a forward tap that judges the routed target's stream after invoke primed it
// (as a tap checking the first output might) and lets it go without sending it. The request's
// `x-test-then` header says what the tap answers instead: `fallback` (the fallback target,
// through invoke again), `refuse` (an error of its own) or `json` (a JSON answer of its own).
import { badRequest } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import type { Target } from '../../core/provider.js';
import { jsonReply } from '../../core/reply.js';

const NAME = 'test-second-opinion';

export default definePlugin<{ fallback: string }>({
  name: NAME,
  dependsOn: ['router'],
  schema: { type: 'object', additionalProperties: false, required: ['fallback'], properties: { fallback: { type: 'string', pattern: '^[^/]+/.+$' } } },
  setup(gw, options) {
    let fallback: Target | null = null;
    gw.lifecycle.ready.tap(NAME, () => {
      const slash = options.fallback.indexOf('/');
      fallback = { provider: gw.providers.get(options.fallback.slice(0, slash))!, model: options.fallback.slice(slash + 1), id: options.fallback, metadata: null };
    });
    gw.stages.forward.tapPromise(NAME, async (ctx) => {
      await gw.invoke(ctx, ctx.target!);
      const then = ctx.req.headers['x-test-then'];
      if (then === 'fallback') return gw.invoke(ctx, fallback!);
      if (then === 'json') return jsonReply({ object: 'chat.completion', choices: [] });
      throw badRequest('the first answer was judged unfit');
    });
  },
});
