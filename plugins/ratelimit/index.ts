// Rate limits per key and per label value: requests and tokens per minute (sliding window) and
// concurrent requests, counted in memory or, shared by every replica, in Redis. Every answer to
// a limited request carries OpenAI's x-ratelimit-* headers; a refusal is 429 rate_limit_exceeded
// with retry-after. Settled in the log stage: the concurrency slot is given back and the token
// estimate corrected by the real usage. docs/rate-limits.md.
import type { RequestContext } from '../../core/context.js';
import { rateLimited, unavailable } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import { redisConnection } from '../limit-state/redis-option.js';
import { estimateTokens } from '../limit-state/token-estimate.js';
import { rateLimitHeaders, retryAfterSeconds } from './headers.js';
import type { Admission, RateLimiter, RateScope } from './limiter.js';
import { MemoryRateLimiter } from './memory-limiter.js';
import { rateScopes } from './rate-scopes.js';
import { RedisRateLimiter } from './redis-limiter.js';
import { rateLimitSchema } from './schema.js';
import type { RateLimitOptions } from './schema.js';

const NAME = 'ratelimit';

declare module '../../core/context.js' {
  interface ContextLocals {
    ratelimit?: { scopes: RateScope[]; window: number; tokens: number };
  }
}

const LIMIT_TEXT = { requests: 'requests per minute', tokens: 'tokens per minute', concurrent: 'concurrent requests' } as const;

export default definePlugin<RateLimitOptions>({
  name: NAME,
  schema: rateLimitSchema,
  async setup(gw, options) {
    const redis = await redisConnection(gw, NAME, options);
    const limiter: RateLimiter = redis === null ? new MemoryRateLimiter() : new RedisRateLimiter(redis, options.key_prefix, options.concurrent_lease_ms);
    const labelLimits = Object.entries(options.labels);

    function decide(ctx: RequestContext, scopes: RateScope[], tokens: number, admission: Admission | null): void {
      if (admission === null) {
        if (options.on_redis_error === 'closed') throw unavailable('rate limits cannot be checked right now', 'limits_unavailable');
        return;
      }
      // Set on the response now: the core sends them with the JSON answer, the stream or the error.
      for (const [name, value] of rateLimitHeaders(scopes, admission, tokens)) ctx.res.setHeader(name, value);
      const refused = admission.refusedScope;
      if (refused !== -1) {
        const scope = scopes[refused]!;
        const limit = admission.refusal === 'requests' ? scope.rpm : admission.refusal === 'tokens' ? scope.tpm : scope.concurrent;
        const retryAfter = retryAfterSeconds(scope, admission.counts[refused]!, admission);
        throw rateLimited(`rate limit of ${limit} ${LIMIT_TEXT[admission.refusal!]} reached for ${scope.id}`, retryAfter);
      }
      ctx.locals.ratelimit = { scopes, window: admission.window, tokens };
    }

    function check(ctx: RequestContext): Promise<void> | undefined {
      const scopes = rateScopes(ctx, labelLimits);
      if (scopes.length === 0) return undefined;
      const estimate = estimateTokens(ctx, options);
      const tokens = estimate.input + estimate.output;
      const admission = limiter.admit(scopes, ctx.id, tokens);
      if (admission instanceof Promise) return admission.then((a) => decide(ctx, scopes, tokens, a));
      decide(ctx, scopes, tokens, admission);
      return undefined;
    }

    if (redis === null) gw.stages.limit.tap(NAME, check);
    else gw.stages.limit.tapPromise(NAME, async (ctx: RequestContext) => check(ctx));

    gw.stages.log.tap(NAME, (ctx: RequestContext) => {
      const held = ctx.locals.ratelimit;
      if (held === undefined) return;
      limiter.settle(held.scopes, ctx.id, held.window, tokensUsed(ctx, held.tokens) - held.tokens);
    });
    gw.lifecycle.close.tapPromise(NAME, () => limiter.close());
  },
});

/** The tokens a finished call used: its usage; none for a cache hit or a failed call; the estimate when the client left before usage came. */
function tokensUsed(ctx: RequestContext, estimate: number): number {
  if (ctx.cacheHit) return 0;
  if (ctx.usage !== null) return ctx.usage.total_tokens;
  return ctx.status === 499 ? estimate : 0;
}
