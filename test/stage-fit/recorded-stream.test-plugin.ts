// Test-only plugin: a cache tap that answers every call after `x-test-delay-ms` milliseconds: a
// stream call with a stream known whole (`recordedReply`: fixed events, usage and folded body),
// any other with that body as JSON.
import { setTimeout as sleep } from 'node:timers/promises';
import { definePlugin } from '../../core/plugin.js';
import { jsonReply, recordedReply } from '../../core/reply.js';
import type { Reply } from '../../core/reply.js';
import type { Usage } from '../../core/types/usage.js';

const NAME = 'test-recorded-stream';

export const EVENTS = 'data: {"id":"r","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
export const BODY = '{"id":"r","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}';
export const USAGE: Usage = { input_tokens: 3, output_tokens: 1, total_tokens: 4, cached_input_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, audio_input_tokens: 0, audio_output_tokens: 0 };

export default definePlugin({
  name: NAME,
  setup(gw) {
    gw.stages.cache.tapPromise(NAME, async (ctx): Promise<Reply | undefined> => {
      await sleep(Number(ctx.req.headers['x-test-delay-ms'] ?? 0));
      const reply = ctx.stream ? recordedReply(Buffer.from(EVENTS), { ...USAGE }, Buffer.from(BODY)) : jsonReply(undefined, { ...USAGE }, Buffer.from(BODY));
      reply.headers = { 'x-recorded': 'yes' };
      return reply;
    });
  },
});
