// Test-only plugin, loaded by path: plays the features other plugins will bring (limits and
// budgets, a response cache, failover) on request headers, through the same context fields
// they will set, so the metrics and traces of those paths can be tested before they exist.
//   x-test-reject: rate | budget   the limit stage answers 429 with that code
//   x-test-cache: hit | miss       the cache stage answers (hit), or the call goes out marked MISS
//   x-test-failover: <prefix>      the forward stage tries <prefix>/<model> first, then the target
//   x-test-crash: <text>           the limit stage fails with a plain Error quoting <text> (a 500)
import { fileURLToPath } from 'node:url';
import type { RequestContext } from '../../core/context.js';
import { rateLimited } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { jsonReply } from '../../core/reply.js';
import type { Reply } from '../../core/reply.js';
import { emptyUsage } from '../../core/types/usage.js';

export const SCRIPTED_FEATURES_ENTRY = { path: fileURLToPath(import.meta.url) };

/** What the scripted cache answers: 3 input and 2 output tokens it once cost. */
export const CACHED_ANSWER = { id: 'chatcmpl-cached', object: 'chat.completion', created: 1, model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, message: { role: 'assistant', content: 'cached' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } };

function header(ctx: RequestContext, name: string): string | undefined {
  const value = ctx.req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

export default definePlugin({
  name: 'scripted-features',
  setup(gw) {
    gw.stages.limit.tap('scripted-features', (ctx: RequestContext) => {
      const reject = header(ctx, 'x-test-reject');
      if (reject === 'rate') throw rateLimited('scripted rate limit', 7);
      if (reject === 'budget') throw rateLimited('scripted budget', 60, 'budget_exceeded');
      const crash = header(ctx, 'x-test-crash');
      if (crash !== undefined) throw new Error(`scripted crash: ${crash}`);
    });
    gw.stages.cache.tap('scripted-features', (ctx: RequestContext): Reply | undefined => {
      if (header(ctx, 'x-test-cache') !== 'hit') return undefined;
      ctx.cacheHit = true;
      const reply = jsonReply(CACHED_ANSWER, { ...emptyUsage(), input_tokens: 3, output_tokens: 2, total_tokens: 5 });
      reply.headers = { 'x-cache': 'HIT' };
      return reply;
    });
    gw.stages.forward.tapPromise('scripted-features', async (ctx: RequestContext): Promise<Reply | undefined> => {
      const first = header(ctx, 'x-test-failover');
      const cache = header(ctx, 'x-test-cache');
      if (first === undefined && cache !== 'miss') return undefined;
      const target = ctx.target!;
      if (first !== undefined) {
        const provider = gw.providers.get(first)!;
        try {
          return await gw.invoke(ctx, { provider, model: target.model, id: `${first}/${target.model}`, metadata: target.metadata });
        } catch {
          // The next target answers.
        }
      }
      const reply = await gw.invoke(ctx, target);
      if (cache === 'miss') reply.headers = { ...(reply.headers ?? {}), 'x-cache': 'MISS' };
      return reply;
    });
  },
});
