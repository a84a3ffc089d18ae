// The response cache (docs/cache.md): the cache tap answers a repeated call from a stored
// answer without calling the provider; the log tap stores each successful, complete answer as
// it was sent (a stream as its events, which the relay copies for it, replayed whole on a hit),
// with the target that gave it. Every answer says `x-cache: HIT` or `MISS`; a hit sets ctx.cacheHit, so pricing charges 0
// and records what it saved, at the price of the target that answered.
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import type { Gateway } from '../../core/plugin.js';
import type { Target } from '../../core/provider.js';
import type { Reply } from '../../core/reply.js';
import { includesUsage } from '../../core/stream/chat-format.js';
import { StreamCopy } from '../../core/stream/stream-copy.js';
import { cacheKey } from './cache-key.js';
import { Coalescer } from './coalescer.js';
import { bodyBytes, entrySize, ownBytes, replyFrom } from './entry.js';
import type { AnsweredBy, Entry } from './entry.js';
import { KeyMemo } from './key-memo.js';
import { MemoryStore } from './memory-store.js';
import type { RedisStore } from './redis-store.js';
import { requestPolicy } from './request-policy.js';
import type { CacheStore } from './store.js';
import { usageOnlyEvents } from './usage-events.js';

const NAME = 'cache';
/** Distinct request bodies whose cache key is remembered (about 150 bytes each). */
const MEMO_CAPACITY = 10_000;

interface CacheOptions {
  backend: 'memory' | 'redis';
  redis_url: string;
  key_prefix: string;
  scope: 'key' | 'deployment';
  ttl_seconds: number;
  max_entry_bytes: number;
  max_bytes: number;
  operations: string[];
  cache_side_effects: boolean;
  coalesce: boolean;
}

/** A request whose answer may be stored: what the cache tap decided, for the log tap. */
interface CacheTicket {
  key: string;
  /** This request leads a coalesced miss: its followers wait for the log tap. */
  leads: boolean;
}

declare module '../../core/context.js' {
  interface ContextLocals {
    cache?: CacheTicket;
  }
}

export default definePlugin<CacheOptions>({
  name: NAME,
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      backend: { enum: ['memory', 'redis'], default: 'memory' },
      redis_url: { type: 'string', minLength: 1, default: 'redis://127.0.0.1:6379' },
      key_prefix: { type: 'string', minLength: 1, default: 'sluice:cache' },
      scope: { enum: ['key', 'deployment'], default: 'key' },
      ttl_seconds: { type: 'number', exclusiveMinimum: 0, default: 3600 },
      max_entry_bytes: { type: 'integer', minimum: 1, default: 1048576 },
      max_bytes: { type: 'integer', minimum: 1, default: 104857600 },
      operations: { type: 'array', items: { enum: ['chat', 'embeddings', 'responses'] }, default: ['chat', 'embeddings', 'responses'] },
      cache_side_effects: { type: 'boolean', default: false },
      coalesce: { type: 'boolean', default: true },
    },
  },
  async setup(gw, options) {
    const warn = (what: string) => (err: unknown): undefined => {
      gw.logger.warn(`cache: ${what}: ${err instanceof Error ? err.message : String(err)}`);
    };
    const store: CacheStore = options.backend === 'redis' ? await redisStore(gw, options) : new MemoryStore<Entry>(options.max_bytes, entrySize);
    const coalescer = options.coalesce ? new Coalescer() : null;
    const operations = new Set(options.operations);
    const ttlMs = options.ttl_seconds * 1000;
    const keys = new KeyMemo(MEMO_CAPACITY);

    /**
     * The target a hit names (headers, audit entry, the price of what it saved): the one that
     * answered, as it is known today. Null when its provider is no longer enabled.
     */
    const answeringTarget = (routed: Target, by: AnsweredBy | null): Target | null => {
      // An entry written before entries kept who answered names the routed target, as hits did then.
      if (by === null || (by.id === routed.id && by.provider === routed.provider.name && by.model === routed.model)) return routed;
      const provider = gw.providers.get(by.provider);
      if (provider === undefined) return null;
      return { provider, model: by.model, id: by.id, metadata: gw.services.models?.metadata(by.id) ?? null };
    };

    // A backend that fails is a miss, never a failed request.
    const lookup = async (ctx: RequestContext, key: string): Promise<Reply | undefined> => {
      const entry = await store.get(key).catch(warn('read'));
      if (entry === undefined) return undefined;
      const reply = replyFrom(entry, ctx.stream, includesUsage(ctx.body));
      const target = answeringTarget(ctx.target!, entry.answeredBy);
      if (reply === null || target === null) return undefined;
      ctx.target = target;
      ctx.cacheHit = true;
      reply.headers = { 'x-cache': 'HIT' };
      return reply;
    };

    /** The stored answer, or the one a coalesced leader stores; undefined when the provider is to answer. */
    const answer = async (ctx: RequestContext, ticket: CacheTicket): Promise<Reply | undefined> => {
      const hit = await lookup(ctx, ticket.key);
      if (hit !== undefined || coalescer === null) return hit;
      const leader = coalescer.follow(ticket.key);
      if (leader === undefined) {
        ticket.leads = true;
        return undefined;
      }
      await whileConnected(ctx, leader);
      return await lookup(ctx, ticket.key);
    };

    gw.stages.cache.tapPromise(NAME, async (ctx) => {
      const policy = requestPolicy({ operation: ctx.route.operation ?? '', body: ctx.body ?? {}, headers: ctx.req.headers, operations, cacheSideEffects: options.cache_side_effects });
      ctx.res.setHeader('x-cache', 'MISS');
      if (policy === 'skip') return undefined;
      const target = ctx.target!;
      const scope = options.scope === 'key' ? (ctx.principal?.id ?? '') : '*';
      const parts = { scope, operation: ctx.route.operation!, provider: target.provider.name, model: target.model, body: ctx.body! };
      const raw = ctx.rawBody;
      const key = raw === null ? cacheKey(parts) : keys.key(`${scope}\0${parts.operation}\0${parts.provider}\0${parts.model}`, raw, () => cacheKey(parts));
      const ticket: CacheTicket = { key, leads: false };
      ctx.locals.cache = ticket;
      const hit = policy === 'refresh' ? undefined : await answer(ctx, ticket);
      // A miss is answered by the provider: the relay copies the stream for the log tap, up to the size an entry may have.
      if (hit === undefined && ctx.stream) ctx.streamCopy = new StreamCopy(options.max_entry_bytes);
      return hit;
    });

    gw.stages.log.tap(NAME, (ctx) => {
      const ticket = ctx.locals.cache;
      if (ticket === undefined) return;
      const release = () => {
        if (ticket.leads) coalescer?.release(ticket.key);
      };
      let stored: Promise<void> | null = null;
      try {
        const entry = storable(ctx) ? storedEntry(ctx) : null;
        if (entry !== null && entry.payload.length <= options.max_entry_bytes) stored = store.set(ticket.key, entry, ttlMs);
      } catch (err) {
        // A bug of ours: said, and the followers are let go rather than left waiting.
        warn('write')(err);
      }
      // Followers look again only once the entry is there.
      if (stored === null) release();
      else stored.catch(warn('write')).finally(release);
    });

    gw.lifecycle.close.tapPromise(NAME, () => store.close());
  },
});

/**
 * Waits for `leader`, unless the request is cancelled first (its client left, or the shutdown
 * deadline came): then its call ends at once with the cancellation's reason, so that what it
 * holds (a concurrency slot) is given back now rather than when the leader is done.
 */
function whileConnected(ctx: RequestContext, leader: Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    ctx.abort.onAbort(reject);
    void leader.then(() => {
      ctx.abort.offAbort(reject);
      resolve();
    });
  });
}

/**
 * The Redis backend, connected before the gateway listens (at most a second: a Redis that is down
 * does not hold it back). The Redis client is loaded only for this backend.
 */
async function redisStore(gw: Gateway, options: CacheOptions): Promise<RedisStore> {
  const { RedisStore } = await import('./redis-store.js');
  const store = new RedisStore(options.redis_url, options.key_prefix, gw.logger);
  gw.lifecycle.ready.tapPromise(NAME, () => store.connect());
  return store;
}

/** Only a successful, complete answer the provider gave is stored. */
function storable(ctx: RequestContext): boolean {
  return ctx.status === 200 && !ctx.cacheHit && !ctx.partial && ctx.error === null && ctx.responseBody !== null;
}

/** The entry for the answer as it was sent; null for a stream the relay did not copy whole (past the size cap). */
function storedEntry(ctx: RequestContext): Entry | null {
  const target = ctx.target!;
  const answeredBy = { provider: target.provider.name, model: target.model, id: target.id };
  if (!ctx.stream) return { shape: 'json', usage: ctx.usage, answeredBy, payload: bodyBytes(ctx.responseBody) };
  const events = ctx.streamCopy?.text() ?? null;
  if (events === null) return null;
  const payload = ownBytes(events);
  // Only a chat stream has usage-only chunks to hide from a client.
  const usageEvents = ctx.route.operation === 'chat' ? usageOnlyEvents(payload) : [];
  return { shape: 'events', usage: ctx.usage, answeredBy, payload, usageEvents, body: bodyBytes(ctx.responseBody) };
}
