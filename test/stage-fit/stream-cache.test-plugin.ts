// Test-only plugin: a response cache. The log tap keeps each answered chat call's completion (a
// stream's folded object too) under its model and messages; the cache tap answers a repeated call
// from it without calling the provider: as JSON, or for a stream as chat chunks replayed through
// the core's client-format translator, which hides the usage chunk from a client that did not ask.
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import type { Reply } from '../../core/reply.js';
import { ChatChunkStream } from '../../core/stream/client-format-streams.js';
import { resolvedBody } from '../../core/stream/stream-fold.js';
import type { ChatCompletion, ChatCompletionChunk } from '../../core/types/chat.js';
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
      const reply = ctx.stream ? streamReply(replay(completion), new ChatChunkStream(NAME)) : jsonReply(completion, completion.usage ? usageFromChat(completion.usage) : null);
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

/** The completion as the chunks of a stream: each choice's text, its finish, then the usage. */
async function* replay(completion: ChatCompletion): AsyncGenerator<string> {
  const head = { id: completion.id, object: 'chat.completion.chunk' as const, created: completion.created, model: completion.model };
  const event = (chunk: ChatCompletionChunk): string => `data: ${JSON.stringify(chunk)}\n\n`;
  for (const choice of completion.choices) {
    yield event({ ...head, choices: [{ index: choice.index, delta: { role: 'assistant', content: choice.message.content as string | null }, finish_reason: null }] });
    yield event({ ...head, choices: [{ index: choice.index, delta: {}, finish_reason: choice.finish_reason }] });
  }
  if (completion.usage) yield event({ ...head, choices: [], usage: completion.usage });
  yield 'data: [DONE]\n\n';
}
