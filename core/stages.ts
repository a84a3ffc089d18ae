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
//   log      async  always runs last: recording the call, giving back what limit took.
//
// Hooks are tapped at boot only (a tap discards tapable's compiled call), then frozen; the
// pipeline reads each stage's taps once after boot (stageRunners) and runs them itself.
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

type TapFn = (ctx: RequestContext) => unknown;

interface CompiledTap {
  readonly fn: TapFn;
  /** A tapPromise tap: its promise is awaited before the next tap runs. */
  readonly promise: boolean;
}

/** A series stage as the pipeline calls it: undefined when every tap finished synchronously. */
export type SeriesRunner = (ctx: RequestContext) => Promise<void> | undefined;
/** A bail stage as the pipeline calls it: the reply (or undefined), or a promise of it when a tap was async. */
export type BailRunner = (ctx: RequestContext) => Reply | undefined | Promise<Reply | undefined>;

/**
 * How the pipeline runs each stage, read once after boot; null for a stage without taps, so the
 * request path skips it. tapable's `promise()` allocates a promise and closures per call even
 * when every tap is sync (and each `await` of it costs a microtask): here sync taps are plain
 * calls and only a tapPromise tap is awaited. A stage with interceptors or callback (tapAsync)
 * taps is left to tapable.
 */
export interface StageRunners {
  readonly auth: SeriesRunner | null;
  readonly route: SeriesRunner | null;
  readonly limit: SeriesRunner | null;
  readonly cache: BailRunner | null;
  readonly forward: BailRunner | null;
  readonly log: SeriesRunner | null;
  /** The sync stages: tapable compiles them to plain calls already. */
  readonly tag: boolean;
  readonly price: boolean;
}

type SeriesHook = AsyncSeriesHook<[RequestContext]>;
type BailHook = AsyncSeriesBailHook<[RequestContext], Reply | undefined>;

export function stageRunners(stages: Stages): StageRunners {
  return Object.freeze({
    auth: seriesRunner(stages.auth),
    route: seriesRunner(stages.route),
    limit: seriesRunner(stages.limit),
    cache: bailRunner(stages.cache),
    forward: bailRunner(stages.forward),
    log: seriesRunner(stages.log),
    tag: stages.tag.isUsed(),
    price: stages.price.isUsed(),
  });
}

function compiledTaps(hook: SeriesHook | BailHook): CompiledTap[] | null {
  if (hook.interceptors.length > 0 || hook.taps.some((t) => t.type === 'async')) return null;
  return hook.taps.map((t) => ({ fn: t.fn as TapFn, promise: t.type === 'promise' }));
}

function seriesRunner(hook: SeriesHook): SeriesRunner | null {
  if (!hook.isUsed()) return null;
  const taps = compiledTaps(hook);
  if (taps === null) return (ctx) => hook.promise(ctx);
  return (ctx) => runSeries(taps, ctx, 0);
}

function bailRunner(hook: BailHook): BailRunner | null {
  if (!hook.isUsed()) return null;
  const taps = compiledTaps(hook);
  if (taps === null) return (ctx) => hook.promise(ctx);
  return (ctx) => runBail(taps, ctx, 0);
}

function runSeries(taps: readonly CompiledTap[], ctx: RequestContext, from: number): Promise<void> | undefined {
  for (let i = from; i < taps.length; i++) {
    const tap = taps[i]!;
    const result = tap.fn(ctx);
    if (tap.promise) return i + 1 === taps.length ? (result as Promise<void>) : settleSeries(result, taps, ctx, i + 1);
  }
  return undefined;
}

async function settleSeries(pending: unknown, taps: readonly CompiledTap[], ctx: RequestContext, next: number): Promise<void> {
  await pending;
  const rest = runSeries(taps, ctx, next);
  if (rest !== undefined) await rest;
}

function runBail(taps: readonly CompiledTap[], ctx: RequestContext, from: number): Reply | undefined | Promise<Reply | undefined> {
  for (let i = from; i < taps.length; i++) {
    const tap = taps[i]!;
    const result = tap.fn(ctx);
    // Promise.resolve() hands back a native promise as it is: the caller tells replies from
    // promises with instanceof.
    if (tap.promise) return i + 1 === taps.length ? Promise.resolve(result as Reply | undefined) : settleBail(result, taps, ctx, i + 1);
    if (result !== undefined) return result as Reply;
  }
  return undefined;
}

async function settleBail(pending: unknown, taps: readonly CompiledTap[], ctx: RequestContext, next: number): Promise<Reply | undefined> {
  const reply = (await pending) as Reply | undefined;
  return reply !== undefined ? reply : runBail(taps, ctx, next);
}
