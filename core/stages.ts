// The request lifecycle, declared in one place. Each stage's contract (what a tap may read,
// what it may set, how it stops the request) is documented in docs/architecture.md; in short:
//
//   auth     async  sets ctx.principal; throws to reject (401/403).
//   tag      sync   adds ctx.labels.
//   route    async  validates the body and sets ctx.target; throws 400/404.
//   limit    async  admits or throws 429 (rate limits, budgets); may hold resources that log gives back.
//   cache    bail   may answer early with a Reply (the first reply wins).
//   forward  bail   may answer with a Reply (failover); when no tap answers the core calls ctx.target.
//   price    sync   always runs (after errors and cache hits too): sets ctx.cost from ctx.usage.
//   log      async  always runs last: audit, metrics, giving back what limit took.
//
// Hooks are tapped at boot only (a tap discards tapable's compiled call), then frozen.
import { AsyncSeriesBailHook, AsyncSeriesHook, SyncHook } from 'tapable';
import type { RequestContext } from './context.js';
import type { Reply } from './reply.js';

/** Named `stage` numbers that order taps inside one hook (lower runs first). */
export const ORDER = Object.freeze({
  FIRST: -1000,
  VALIDATE: -100,
  DEFAULT: 0,
  LATE: 100,
  LAST: 1000,
});

export function createStages() {
  return Object.freeze({
    auth: new AsyncSeriesHook<[RequestContext]>(['ctx']),
    tag: new SyncHook<[RequestContext]>(['ctx']),
    route: new AsyncSeriesHook<[RequestContext]>(['ctx']),
    limit: new AsyncSeriesHook<[RequestContext]>(['ctx']),
    cache: new AsyncSeriesBailHook<[RequestContext], Reply | undefined>(['ctx']),
    forward: new AsyncSeriesBailHook<[RequestContext], Reply | undefined>(['ctx']),
    price: new SyncHook<[RequestContext]>(['ctx']),
    log: new AsyncSeriesHook<[RequestContext]>(['ctx']),
  });
}

export type Stages = ReturnType<typeof createStages>;
export type StageName = keyof Stages;

/** Which stages have taps, read once after boot so the request path skips empty ones. */
export type UsedStages = Readonly<Record<StageName, boolean>>;

export function usedStages(stages: Stages): UsedStages {
  return Object.freeze({
    auth: stages.auth.isUsed(),
    tag: stages.tag.isUsed(),
    route: stages.route.isUsed(),
    limit: stages.limit.isUsed(),
    cache: stages.cache.isUsed(),
    forward: stages.forward.isUsed(),
    price: stages.price.isUsed(),
    log: stages.log.isUsed(),
  });
}
