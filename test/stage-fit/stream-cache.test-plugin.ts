// Test-only plugin: a response cache. The log tap keeps each answered chat call's completion (a
// stream's folded object too) under its model and messages; the cache tap answers a repeated call
// from it without calling the provider: as JSON, or for a stream as the chunks that carry the
// completion (`replayedChat`, which the relay frames like any stream: the usage chunk is
// hidden from a client that did not ask for it).
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { jsonReply } from '../../core/reply.js';
import type { Reply } from '../../core/reply.js';
import { replayedChat } from '../../core/stream/json-answer.js';
import { resolvedBody } from '../../core/stream/stream-fold.js';
import type { ChatCompletion } from '../../core/types/chat.js';
import { usageFromChat } from '../../core/usage-mapping.js';

const NAME = 'test-stream-cache';

export default definePlugin({
  name: NAME,
  setup(gw) {
    const stored = new Map<string, ChatCompletion>();
    gw.stages.cache.tap(NAME, (ctx): Reply | undefined => {
      const completion = stored.get(keyOf(ctx));
      if (completion === undefined) return undefined;
      ctx.cacheHit = true;
      const usage = completion.usage ? usageFromChat(completion.usage) : null;
      const reply = ctx.stream ? replayedChat(NAME, completion, usage) : jsonReply(completion, usage);
      reply.headers = { 'x-cache': 'hit' };
      return reply;
    });
    gw.stages.log.tap(NAME, (ctx) => {
      if (ctx.status !== 200 || ctx.cacheHit || ctx.route.operation !== 'chat') return;
      const body = ctx.responseBody;
      stored.set(keyOf(ctx), (Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : resolvedBody(body)) as ChatCompletion);
    });
  },
});

function keyOf(ctx: RequestContext): string {
  return JSON.stringify([ctx.model, ctx.body?.['messages']]);
}
