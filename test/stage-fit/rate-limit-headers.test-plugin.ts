// Test-only plugin: a `limit` tap that admits `limit` calls in all and tells the client where it
// stands in x-ratelimit-* headers, as a rate limiter does. The headers are set on the response
// before any reply exists, so the core's own write of the head (JSON, stream or error) carries them.
import { rateLimited } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';

export default definePlugin<{ limit: number }>({
  name: 'test-rate-limit-headers',
  schema: { type: 'object', additionalProperties: false, required: ['limit'], properties: { limit: { type: 'integer', minimum: 0 } } },
  setup(gw, options) {
    let used = 0;
    gw.stages.limit.tap('test-rate-limit-headers', (ctx) => {
      const admitted = used < options.limit;
      if (admitted) used++;
      ctx.res.setHeader('x-ratelimit-limit-requests', String(options.limit));
      ctx.res.setHeader('x-ratelimit-remaining-requests', String(options.limit - used));
      if (!admitted) throw rateLimited('this test allows no more calls', 30);
    });
  },
});
