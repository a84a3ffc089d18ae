// Test-only plugin: answers every call whose last message says "cached" from a pretend cache
// (ctx.cacheHit, with the usage the call would have had), so tests can see what a cache hit gives back.
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import type { Reply } from '../../core/reply.js';
import { emptyUsage } from '../../core/types/usage.js';

export const TEST_CACHE_FILE = new URL('./test-cache.ts', import.meta.url).pathname;

export default definePlugin({
  name: 'test-limit-cache',
  setup(gw) {
    gw.stages.cache.tap('test-limit-cache', (ctx: RequestContext): Reply | undefined => {
      if (ctx.rawBody === null || !ctx.rawBody.includes('"cached"')) return undefined;
      ctx.cacheHit = true;
      const usage = { ...emptyUsage(), input_tokens: 17, output_tokens: 4, total_tokens: 21 };
      return { kind: 'json', status: 200, body: { id: 'cached', object: 'chat.completion', choices: [] }, raw: null, usage, headers: null };
    });
  },
});
