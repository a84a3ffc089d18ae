// A stream request answered with a whole JSON body (a server of the client's API that ignores
// `stream`, a proxy that buffers): a chat completion or a Responses object is replayed as the
// stream that would have carried it, so the client gets a proper event stream and the call is
// metered from the answer's own usage. Anything else cannot be replayed exactly and is the
// provider's failure (502); docs/architecture.md, "A stream request answered with JSON".
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors.js';
import { streamReply } from '../reply.js';
import type { StreamReply } from '../reply.js';
import type { ChatChoice, ChatCompletion, ChatCompletionChunk, ChatDelta } from '../types/chat.js';
import type { ResponseObject } from '../types/responses.js';
import type { Usage } from '../types/usage.js';
import { responseEvents } from './responses-replay.js';
import type { SseEvent, StreamSink, StreamTranslator } from './translator.js';

const JSON_TYPE = /^application\/json\b/i;

/** Whether an upstream answer is a JSON body (by its content type) rather than an event stream. */
export function isJsonAnswer(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  return type !== undefined && JSON_TYPE.test(type);
}

/**
 * The 502 for a stream request answered with JSON that has no exact stream form. Not retryable:
 * the provider answered and billed the call, and would answer the same again, billed again.
 */
export function notReplayable(provider: string): GatewayError {
  const message = `provider '${provider}' answered a stream request with a JSON body that cannot be replayed as a stream exactly`;
  return new GatewayError({ status: 502, type: 'provider_error', message, provider, code: 'stream_expected' });
}

/** A chat completion answered to a stream request, as a stream reply; `usage` is what the call is metered with. */
export function replayedChat(provider: string, completion: unknown, usage: Usage | null): StreamReply {
  if (!isChatCompletion(completion)) throw notReplayable(provider);
  let text = '';
  for (const chunk of completionChunks(completion)) text += `data: ${JSON.stringify(chunk)}\n\n`;
  return streamReply(once(text), new CompletionReplay(usage));
}

/**
 * The chunks a provider streams for `completion`: each choice's whole message as one delta
 * (tool calls with their index), then each finish reason, then the usage chunk.
 */
export function completionChunks(completion: ChatCompletion): ChatCompletionChunk[] {
  const { choices, usage, object: _object, ...head } = completion;
  const chunk = (parts: ChatCompletionChunk['choices'], withUsage?: ChatCompletion['usage']): ChatCompletionChunk => {
    const out: ChatCompletionChunk = { ...head, object: 'chat.completion.chunk', choices: parts };
    if (withUsage !== undefined) out.usage = withUsage;
    return out;
  };
  const chunks = choices.map((c) => chunk([{ index: c.index, delta: deltaOf(c), finish_reason: null, ...(c.logprobs !== undefined ? { logprobs: c.logprobs } : {}) }]));
  for (const c of choices) chunks.push(chunk([{ index: c.index, delta: {}, finish_reason: c.finish_reason }]));
  if (usage !== undefined) chunks.push(chunk([], usage));
  return chunks;
}

function deltaOf(choice: ChatChoice): ChatDelta {
  const { tool_calls: calls, ...message } = choice.message;
  const delta: ChatDelta = { ...message, content: message.content as ChatDelta['content'] };
  if (calls !== undefined) delta.tool_calls = calls.map((call, index) => ({ index, ...call }));
  return delta;
}

function isChatCompletion(value: unknown): value is ChatCompletion {
  if (typeof value !== 'object' || value === null) return false;
  const choices = (value as { choices?: unknown }).choices;
  return Array.isArray(choices) && choices.every(isChoice);
}

/** A choice with a message whose content is text (a list of parts has no delta form). */
function isChoice(value: unknown): value is ChatChoice {
  if (typeof value !== 'object' || value === null) return false;
  const { index, message } = value as { index?: unknown; message?: unknown };
  if (typeof index !== 'number' || typeof message !== 'object' || message === null) return false;
  const content = (message as { content?: unknown }).content;
  return content === undefined || content === null || typeof content === 'string';
}

/**
 * A Responses object answered to a stream request, as a stream reply read by `translator` (the
 * provider's own for its Responses streams, which meters it from response.completed); null when
 * it has no exact stream form.
 */
export function replayedResponse(response: unknown, translator: StreamTranslator<unknown>): StreamReply | null {
  const events = typeof response === 'object' && response !== null ? responseEvents(response as ResponseObject) : null;
  if (events === null) return null;
  let text = '';
  for (const event of events) text += `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  return streamReply(once(text), translator);
}

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

/** Hands the replayed chunks on as they are, and reports the answer's usage at the end. */
class CompletionReplay implements StreamTranslator<ChatCompletionChunk> {
  readonly #usage: Usage | null;

  constructor(usage: Usage | null) {
    this.#usage = usage;
  }

  onEvent(event: SseEvent, sink: StreamSink<ChatCompletionChunk>): void {
    sink.emit(JSON.parse(event.data) as ChatCompletionChunk, event.data);
  }

  onEnd(sink: StreamSink<ChatCompletionChunk>): void {
    if (this.#usage !== null) sink.usage(this.#usage);
  }
}
