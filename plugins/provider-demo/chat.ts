// The demo's chat: a real chat.completion, or a real SSE stream of chunks that goes through
// the same client-format translator as OpenAI's, so streaming, usage and reassembly behave
// exactly as with a provider.
import { setTimeout as sleep } from 'node:timers/promises';
import type { OperationHandler } from '../../core/provider.js';
import { randomHex } from '../../core/random-pool.js';
import { jsonReply, streamReply } from '../../core/reply.js';
import { ChatChunkStream } from '../../core/stream/client-format-streams.js';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest, ChatUsage } from '../../core/types/chat.js';
import { modelNotFound } from '../../core/errors.js';
import { usageFromChat } from '../../core/usage-mapping.js';
import { answer, pieces } from './answer.js';
import type { DemoAnswer } from './answer.js';
import { countPromptTokens, countTokens } from './tokens.js';

export const DEMO_MODEL_NAMES: ReadonlySet<string> = new Set(['echo', 'lorem']);

function chatUsage(req: ChatRequest, reply: DemoAnswer): ChatUsage {
  const prompt = countPromptTokens(req.messages);
  const completion = countTokens(reply.text);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function completionId(): string {
  return `chatcmpl-demo-${randomHex(12)}`;
}

async function* sse(chunks: ChatCompletionChunk[], delayMs: number): AsyncGenerator<string> {
  for (let i = 0; i < chunks.length; i++) {
    if (delayMs > 0 && i > 0) await sleep(delayMs);
    yield `data: ${JSON.stringify(chunks[i])}\n\n`;
  }
  yield 'data: [DONE]\n\n';
}

export function demoChat(prefix: string, streamDelayMs: number): OperationHandler {
  return async (request, target) => {
    if (!DEMO_MODEL_NAMES.has(target.model)) throw modelNotFound(target.id);
    const req = request.body as unknown as ChatRequest;
    const reply = answer(target.model, req);
    const usage = chatUsage(req, reply);
    const id = completionId();
    const created = Math.floor(Date.now() / 1000);
    if (!request.stream) {
      const completion: ChatCompletion = {
        id,
        object: 'chat.completion',
        created,
        model: target.model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.text, refusal: null }, finish_reason: reply.finishReason, logprobs: null }],
        usage,
        system_fingerprint: 'fp_sluice_demo',
      };
      return jsonReply(completion, usageFromChat(usage));
    }
    const base = { id, object: 'chat.completion.chunk' as const, created, model: target.model, system_fingerprint: 'fp_sluice_demo' };
    const chunks: ChatCompletionChunk[] = [{ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }];
    for (const piece of pieces(reply.text)) chunks.push({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: reply.finishReason }] });
    chunks.push({ ...base, choices: [], usage });
    return streamReply(sse(chunks, streamDelayMs), new ChatChunkStream(prefix));
  };
}
