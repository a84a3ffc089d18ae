// Test-only plugin: a forward tap that judges the routed target's stream after invoke primed it
// (as a tap checking the first output might) and lets it go without sending it. The request's
// `x-test-then` header says what the tap answers instead: `fallback` (the fallback target,
// through invoke again), `refuse` (an error of its own) or `json` (a JSON answer of its own).
import { badRequest } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { jsonReply } from '../../core/reply.js';
import { FALLBACK_SCHEMA, fallbackTarget } from './fallback-target.js';

const NAME = 'test-second-opinion';

export default definePlugin<{ fallback: string }>({
  name: NAME,
  dependsOn: ['router'],
  schema: FALLBACK_SCHEMA,
  setup(gw, options) {
    const fallback = fallbackTarget(gw, NAME, options.fallback);
    gw.stages.forward.tapPromise(NAME, async (ctx) => {
      await gw.invoke(ctx, ctx.target!);
      const then = ctx.req.headers['x-test-then'];
      if (then === 'fallback') return gw.invoke(ctx, fallback());
      if (then === 'json') return jsonReply({ object: 'chat.completion', choices: [] });
      throw badRequest('the first answer was judged unfit');
    });
  },
});
