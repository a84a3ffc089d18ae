import { expect } from 'chai';
import { isGatewayError } from '../../core/errors.js';
import { ChatChunkStream } from '../../core/stream/client-format-streams.js';
import { ResponsesStreamSink } from '../../core/stream/responses-format.js';
import { SseParser } from '../../core/stream/sse-parser.js';
import type { SseEvent, StreamSink, StreamTranslator } from '../../core/stream/translator.js';
import type { ChatDelta, ChatUsage, FinishReason } from '../../core/types/chat.js';
import type { ResponseObject, ResponsesRequest, ResponsesStreamEvent } from '../../core/types/responses.js';
import type { Usage } from '../../core/types/usage.js';
import { emptyUsage } from '../../core/types/usage.js';
import { fixtureText } from '../../test/helpers/fixtures.js';
import { ChatStreamToResponses } from './chat-stream-to-responses.js';
import { DEFAULT_ECHO } from './test-fixtures.js';

const NOW = 1769100000;
const REQUEST: ResponsesRequest = { model: 'openai-compat/gpt-4o-mini', input: 'Say hello', stream: true };

class Collector implements StreamSink<ResponsesStreamEvent> {
  readonly events: ResponsesStreamEvent[] = [];
  readonly usages: Usage[] = [];
  emit(value: ResponsesStreamEvent): void {
    // Serialised as the relay would, so later mutation of shared objects cannot hide a bug.
    this.events.push(JSON.parse(JSON.stringify(value)) as ResponsesStreamEvent);
  }
  usage(usage: Usage): void {
    this.usages.push(usage);
  }
}

function translator(chat: StreamTranslator<unknown> = new ChatChunkStream('groq'), request = REQUEST): ChatStreamToResponses {
  return new ChatStreamToResponses(chat, { request, token: 'tok', provider: 'groq', now: () => NOW });
}

/** Feeds an SSE transcript through the translator the way the relay does. */
function run(sse: string, t: ChatStreamToResponses = translator(), sink: StreamSink<unknown> = new Collector()): typeof sink {
  const parser = new SseParser();
  parser.feed(sse, t, sink);
  parser.end(t, sink);
  t.onEnd(sink as StreamSink<ResponsesStreamEvent>);
  return sink;
}

function events(sse: string, t?: ChatStreamToResponses): Collector {
  return run(sse, t) as Collector;
}

function chunk(delta: ChatDelta, finish: FinishReason | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-T', object: 'chat.completion.chunk', created: 1769093790, model: 'deepseek-chat', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function usageChunk(usage: ChatUsage): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-T', object: 'chat.completion.chunk', created: 1769093790, model: 'deepseek-chat', choices: [], usage })}\n\n`;
}

function inProgress(head: { created_at: number; model: string }): ResponseObject {
  return { id: 'resp_tok', object: 'response', created_at: head.created_at, status: 'in_progress', completed_at: null, incomplete_details: null, model: head.model, output: [], usage: null, ...DEFAULT_ECHO };
}

function caught(fn: () => unknown): [number, string, string | null] {
  try {
    fn();
  } catch (err) {
    if (isGatewayError(err)) return [err.status, err.type, err.provider];
    throw err;
  }
  throw new Error('expected a GatewayError');
}

describe('responses-adapter ChatStreamToResponses', () => {
  it('streams the recorded OpenAI chat stream as the event sequence OpenAI sends for Responses', () => {
    const head = { created_at: 1769092764, model: 'gpt-4o-mini-2024-07-18' };
    const message = { id: 'msg_tok_0', type: 'message', role: 'assistant' };
    const done = { type: 'output_text', annotations: [], logprobs: [], text: 'Hello, World!' };
    const delta = (text: string, n: number) => ({ type: 'response.output_text.delta', content_index: 0, delta: text, item_id: 'msg_tok_0', logprobs: [], output_index: 0, sequence_number: n });
    const completed = {
      ...inProgress(head),
      status: 'completed',
      completed_at: NOW,
      output: [{ ...message, status: 'completed', content: [done] }],
    };
    expect(events(fixtureText('recorded/openai/chat_completion_stream.txt')).events).to.deep.equal([
      { type: 'response.created', response: inProgress(head), sequence_number: 0 },
      { type: 'response.in_progress', response: inProgress(head), sequence_number: 1 },
      { type: 'response.output_item.added', item: { ...message, status: 'in_progress', content: [] }, output_index: 0, sequence_number: 2 },
      { type: 'response.content_part.added', content_index: 0, item_id: 'msg_tok_0', output_index: 0, part: { ...done, text: '' }, sequence_number: 3 },
      delta('Hello', 4),
      delta(',', 5),
      delta(' World', 6),
      delta('!', 7),
      { type: 'response.output_text.done', content_index: 0, item_id: 'msg_tok_0', logprobs: [], output_index: 0, text: 'Hello, World!', sequence_number: 8 },
      { type: 'response.content_part.done', content_index: 0, item_id: 'msg_tok_0', output_index: 0, part: done, sequence_number: 9 },
      { type: 'response.output_item.done', item: { ...message, status: 'completed', content: [done] }, output_index: 0, sequence_number: 10 },
      { type: 'response.completed', response: completed, sequence_number: 11 },
    ]);
  });

  it('carries the usage of the recorded Groq stream into response.completed and the relay', () => {
    const sink = events(fixtureText('recorded/groq/chat_completion_stream.txt'));
    expect(sink.events.map((e) => e.type)).to.deep.equal([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const response = sink.events[10]!.response!;
    expect([response.model, response.status, response.output[0]!.content![0]!.text]).to.deep.equal(['llama-3.3-70b-versatile', 'completed', 'Hello World!']);
    expect(response.usage).to.deep.equal({ input_tokens: 38, input_tokens_details: { cached_tokens: 0 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 42 });
    expect(sink.usages.map((u) => [u.input_tokens, u.output_tokens, u.total_tokens])).to.deep.equal([[38, 4, 42]]);
  });

  it('folds into the final response for the audit log, framed as Responses events', () => {
    const sink = run(fixtureText('recorded/groq/chat_completion_stream.txt'), translator(), new ResponsesStreamSink()) as ResponsesStreamSink;
    const text = sink.take();
    expect(text.startsWith('event: response.created\ndata: {"type":"response.created","response":{"id":"resp_tok"')).to.equal(true);
    expect(text).to.not.include('chat.completion.chunk');
    expect(sink.result()!.status).to.equal('completed');
    expect(sink.usageResult()!.total_tokens).to.equal(42);
  });

  it('streams function calls one after another, as OpenAI does', () => {
    const sse =
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '' } }] }) +
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }) +
      chunk({}, 'tool_calls') +
      usageChunk({ prompt_tokens: 50, completion_tokens: 20, total_tokens: 70, prompt_tokens_details: { cached_tokens: 32 } }) +
      'data: [DONE]\n\n';
    const sink = events(sse);
    const weather = { id: 'fc_tok_0', type: 'function_call', call_id: 'call_w', name: 'get_weather' };
    const time = { id: 'fc_tok_1', type: 'function_call', call_id: 'call_t', name: 'get_time' };
    expect(sink.events.slice(2, -1)).to.deep.equal([
      { type: 'response.output_item.added', item: { ...weather, status: 'in_progress', arguments: '' }, output_index: 0, sequence_number: 2 },
      { type: 'response.function_call_arguments.delta', delta: '{"city":', item_id: 'fc_tok_0', output_index: 0, sequence_number: 3 },
      { type: 'response.function_call_arguments.delta', delta: '"Paris"}', item_id: 'fc_tok_0', output_index: 0, sequence_number: 4 },
      { type: 'response.function_call_arguments.done', arguments: '{"city":"Paris"}', item_id: 'fc_tok_0', name: 'get_weather', output_index: 0, sequence_number: 5 },
      { type: 'response.output_item.done', item: { ...weather, status: 'completed', arguments: '{"city":"Paris"}' }, output_index: 0, sequence_number: 6 },
      { type: 'response.output_item.added', item: { ...time, status: 'in_progress', arguments: '' }, output_index: 1, sequence_number: 7 },
      { type: 'response.function_call_arguments.delta', delta: '{}', item_id: 'fc_tok_1', output_index: 1, sequence_number: 8 },
      { type: 'response.function_call_arguments.done', arguments: '{}', item_id: 'fc_tok_1', name: 'get_time', output_index: 1, sequence_number: 9 },
      { type: 'response.output_item.done', item: { ...time, status: 'completed', arguments: '{}' }, output_index: 1, sequence_number: 10 },
    ]);
    const last = sink.events[11]!;
    expect(last.type).to.equal('response.completed');
    expect(last.response!.output).to.deep.equal([
      { ...weather, status: 'completed', arguments: '{"city":"Paris"}' },
      { ...time, status: 'completed', arguments: '{}' },
    ]);
    expect(last.response!.usage).to.deep.equal({ input_tokens: 50, input_tokens_details: { cached_tokens: 32 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 70 });
  });

  it('streams reasoning as a reasoning summary, and ends incomplete at the length limit', () => {
    const sse =
      chunk({ role: 'assistant', content: '' }) +
      chunk({ reasoning_content: 'x + 5 = 12,' }) +
      chunk({ reasoning_content: ' so x = 7.' }) +
      chunk({ content: 'x = 7' }) +
      chunk({}, 'length') +
      'data: [DONE]\n\n';
    const sink = events(sse);
    const summary = (text: string) => ({ type: 'summary_text', text });
    expect(sink.events.slice(2, 9)).to.deep.equal([
      { type: 'response.output_item.added', item: { id: 'rs_tok_0', type: 'reasoning', summary: [] }, output_index: 0, sequence_number: 2 },
      { type: 'response.reasoning_summary_part.added', item_id: 'rs_tok_0', output_index: 0, part: summary(''), summary_index: 0, sequence_number: 3 },
      { type: 'response.reasoning_summary_text.delta', delta: 'x + 5 = 12,', item_id: 'rs_tok_0', output_index: 0, summary_index: 0, sequence_number: 4 },
      { type: 'response.reasoning_summary_text.delta', delta: ' so x = 7.', item_id: 'rs_tok_0', output_index: 0, summary_index: 0, sequence_number: 5 },
      { type: 'response.reasoning_summary_text.done', item_id: 'rs_tok_0', output_index: 0, summary_index: 0, text: 'x + 5 = 12, so x = 7.', sequence_number: 6 },
      { type: 'response.reasoning_summary_part.done', item_id: 'rs_tok_0', output_index: 0, part: summary('x + 5 = 12, so x = 7.'), summary_index: 0, sequence_number: 7 },
      { type: 'response.output_item.done', item: { id: 'rs_tok_0', type: 'reasoning', summary: [summary('x + 5 = 12, so x = 7.')] }, output_index: 0, sequence_number: 8 },
    ]);
    expect(sink.events.slice(9).map((e) => [e.type, e.output_index ?? null])).to.deep.equal([
      ['response.output_item.added', 1],
      ['response.content_part.added', 1],
      ['response.output_text.delta', 1],
      ['response.output_text.done', 1],
      ['response.content_part.done', 1],
      ['response.output_item.done', 1],
      ['response.incomplete', null],
    ]);
    const response = sink.events[15]!.response!;
    expect([response.status, response.incomplete_details, response.output[1]!.status]).to.deep.equal(['incomplete', { reason: 'max_output_tokens' }, 'incomplete']);
  });

  it('gives a refusal its own content part with the refusal events', () => {
    const sink = events(chunk({ role: 'assistant', refusal: 'I cannot' }) + chunk({ refusal: ' help.' }) + chunk({}, 'stop'));
    expect(sink.events.slice(3, 8)).to.deep.equal([
      { type: 'response.content_part.added', content_index: 0, item_id: 'msg_tok_0', output_index: 0, part: { type: 'refusal', refusal: '' }, sequence_number: 3 },
      { type: 'response.refusal.delta', content_index: 0, delta: 'I cannot', item_id: 'msg_tok_0', output_index: 0, sequence_number: 4 },
      { type: 'response.refusal.delta', content_index: 0, delta: ' help.', item_id: 'msg_tok_0', output_index: 0, sequence_number: 5 },
      { type: 'response.refusal.done', content_index: 0, item_id: 'msg_tok_0', output_index: 0, refusal: 'I cannot help.', sequence_number: 6 },
      { type: 'response.content_part.done', content_index: 0, item_id: 'msg_tok_0', output_index: 0, part: { type: 'refusal', refusal: 'I cannot help.' }, sequence_number: 7 },
    ]);
  });

  it('still sends a whole response when the provider streamed no chunk at all', () => {
    const sink = events('data: [DONE]\n\n');
    expect(sink.events.map((e) => e.type)).to.deep.equal([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(sink.events[0]!.response).to.deep.equal(inProgress({ created_at: NOW, model: 'openai-compat/gpt-4o-mini' }));
  });

  it('lets the provider error of the chat translator through, after what came before', () => {
    const sink = new Collector();
    const t = translator();
    const parser = new SseParser();
    const err = caught(() => parser.feed(chunk({ content: 'Once' }) + 'data: {"error":{"message":"overloaded","code":"overloaded"}}\n\n', t, sink));
    expect(err).to.deep.equal([502, 'provider_error', 'groq']);
    expect(sink.events.map((e) => e.type)).to.deep.equal(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta']);
  });

  it('fails the stream when a finished tool call gets more arguments (interleaved calls)', () => {
    const sse =
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '{' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'x' } }] });
    expect(caught(() => events(sse))).to.deep.equal([502, 'provider_error', 'groq']);
  });

  it("forwards usage the chat translator reports only at its end (onEnd) to the relay and the response", () => {
    const usage = { ...emptyUsage(), input_tokens: 10, output_tokens: 3, total_tokens: 13, cached_input_tokens: 4, reasoning_tokens: 1 };
    const chat: StreamTranslator<unknown> = {
      onEvent(event: SseEvent, sink: StreamSink<unknown>) {
        sink.emit({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'claude', choices: [{ index: 0, delta: { content: event.data }, finish_reason: null }] });
      },
      onEnd(sink: StreamSink<unknown>) {
        sink.usage(usage);
      },
    };
    const sink = events('data: Hi\n\n', translator(chat));
    expect(sink.usages).to.deep.equal([usage]);
    expect(sink.events[sink.events.length - 1]!.response!.usage).to.deep.equal({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 1 },
      total_tokens: 13,
    });
  });
});
