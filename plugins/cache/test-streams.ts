// Test-only: a chat stream of 20 (or more) content chunks as OpenAI writes one (per-chunk `obfuscation`,
// `"usage": null` on each chunk once include_usage is asked, the usage chunk, then [DONE]), served
// by an OpenAI mock one event per write; and a stream call read back as its raw events.
import { fixtureJson } from '../../test/helpers/fixtures.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { sendJson, sendSse } from '../../test/helpers/mock-provider.js';
import { sseData } from '../../test/helpers/sse.js';

export const CONTENT_CHUNKS = 20;
const HEAD = { id: 'chatcmpl-twenty', object: 'chat.completion.chunk', created: 1769092764, model: 'gpt-4o-mini-2024-07-18', service_tier: 'default', system_fingerprint: 'fp_29330a9688' };
const USAGE = { prompt_tokens: 17, completion_tokens: 20, total_tokens: 37, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } };

function chunks(count: number, includeUsage: boolean): string[] {
  const usage = includeUsage ? { usage: null } : {};
  const event = (choices: unknown[], tail: Record<string, unknown>): string => `data: ${JSON.stringify({ ...HEAD, choices, ...tail })}\n\n`;
  const events = Array.from({ length: count }, (_, i) => {
    const delta = i === 0 ? { role: 'assistant', content: 'w0', refusal: null } : { content: ` w${i}` };
    return event([{ index: 0, delta, logprobs: null, finish_reason: null }], { ...usage, obfuscation: `ob${i}` });
  });
  events.push(event([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], { ...usage, obfuscation: 'obX' }));
  if (includeUsage) events.push(event([], { usage: USAGE, obfuscation: 'obU' }));
  events.push('data: [DONE]\n\n');
  return events;
}

/** The mock answers every stream request with the 20-chunk stream, 1 ms between events (so they arrive apart); JSON requests as recorded. */
export function serveTwentyChunks(mock: MockProvider): void {
  serveChunks(mock, CONTENT_CHUNKS, 1);
}

/** The same with `count` content chunks, `gapMs` between events. */
export function serveChunks(mock: MockProvider, count: number, gapMs: number): void {
  mock.on('POST', '/v1/chat/completions', async (req, res) => {
    const body = req.json as { stream?: boolean; stream_options?: { include_usage?: boolean } };
    if (body.stream !== true) return sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
    await sendSse(res, chunks(count, body.stream_options?.include_usage === true), gapMs);
  });
}

export interface RawStream {
  cache: string | null;
  id: string;
  text: string;
  /** The data of each event, in order. */
  data: string[];
}

/** A stream call of the openai SDK (`client.chat.completions.create({ stream: true, ... })`) read as the bytes it got. */
export async function rawStream(call: { asResponse(): Promise<Response> }): Promise<RawStream> {
  const response = await call.asResponse();
  const text = await response.text();
  return { cache: response.headers.get('x-cache'), id: response.headers.get('x-request-id')!, text, data: sseData(text) };
}
