import { readFileSync } from 'node:fs';
import { thrownGatewayError } from '../../test/helpers/errors.js';
import { expect } from 'chai';
import type { SseEvent, StreamSink } from '../../core/stream/translator.js';
import type { ChatCompletionChunk, ChatDelta, ChatUsage, FinishReason } from '../../core/types/chat.js';
import type { Usage } from '../../core/types/usage.js';
import { AnthropicChatStream } from './stream.js';

const CREATED = 1_750_000_000;
const MODEL = 'anthropic/claude-sonnet-4';

/** Just enough SSE for fixtures: events separated by blank lines, `event:` and `data:` fields. */
function sseEvents(text: string): SseEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) => block.split(/\r?\n/).filter((line) => line !== ''))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of lines) {
        if (line.startsWith('event:')) event = line.slice('event:'.length).trim();
        else if (line.startsWith('data:')) data.push(line.slice('data:'.length).replace(/^ /, ''));
      }
      return { event, data: data.join('\n') };
    });
}

function fixture(path: string): SseEvent[] {
  return sseEvents(readFileSync(new URL(`../../test/fixtures/${path}`, import.meta.url), 'utf8'));
}

class Collector implements StreamSink<ChatCompletionChunk> {
  readonly chunks: ChatCompletionChunk[] = [];
  readonly usages: Usage[] = [];
  emit(value: ChatCompletionChunk): void {
    this.chunks.push(value);
  }
  usage(usage: Usage): void {
    this.usages.push(usage);
  }

  /** The reports after message_start's (the prompt's tokens, reported at once for a stream cut short). */
  get final(): Usage[] {
    return this.usages.slice(1);
  }
}

function run(events: SseEvent[], init: ConstructorParameters<typeof AnthropicChatStream>[0] = { modelId: MODEL, created: CREATED }): Collector {
  const sink = new Collector();
  const stream = new AnthropicChatStream(init);
  for (const event of events) stream.onEvent(event, sink);
  stream.onEnd(sink);
  return sink;
}

function chunk(id: string, delta: ChatDelta, finish: FinishReason | null = null): ChatCompletionChunk {
  return { id, object: 'chat.completion.chunk', created: CREATED, model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }] };
}

function usageChunk(id: string, usage: ChatUsage): ChatCompletionChunk {
  return { id, object: 'chat.completion.chunk', created: CREATED, model: MODEL, choices: [], usage };
}

describe('provider-anthropic AnthropicChatStream', () => {
  it('replays the recorded stream (padded data lines, ping, usage repeated in message_delta)', () => {
    const id = 'msg_01SJmPi7XXP8qscFQiHPR9oy';
    const sink = run(fixture('recorded/anthropic/messages_stream.txt'));
    expect(sink.chunks).to.deep.equal([
      chunk(id, { role: 'assistant', content: '' }),
      chunk(id, { content: 'Hello World' }),
      chunk(id, {}, 'stop'),
      usageChunk(id, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 } }),
    ]);
    expect(sink.final).to.deep.equal([
      {
        input_tokens: 10,
        output_tokens: 5,
        total_tokens: 15,
        cached_input_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        audio_input_tokens: 0,
        audio_output_tokens: 0,
        service_tier: 'standard',
        raw: {
          input_tokens: 10,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
          output_tokens: 5,
          service_tier: 'standard',
        },
      },
    ]);
  });

  it('streams tool calls with their own index, argument deltas, and {} for a call without arguments', () => {
    const id = 'msg_01ToolStream';
    const sink = run(fixture('anthropic/stream_tool_use.txt'));
    expect(sink.chunks).to.deep.equal([
      chunk(id, { role: 'assistant', content: '' }),
      chunk(id, { content: 'Let me check' }),
      chunk(id, { content: ' both.' }),
      chunk(id, { tool_calls: [{ index: 0, id: 'toolu_01Weather', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, { tool_calls: [{ index: 0, function: { arguments: '{"location": "San Fra' } }] }),
      chunk(id, { tool_calls: [{ index: 0, function: { arguments: 'ncisco, CA"}' } }] }),
      chunk(id, { tool_calls: [{ index: 1, id: 'toolu_01Time', type: 'function', function: { name: 'get_time', arguments: '' } }] }),
      chunk(id, { tool_calls: [{ index: 1, function: { arguments: '{}' } }] }),
      chunk(id, {}, 'tool_calls'),
      usageChunk(id, { prompt_tokens: 1696, completion_tokens: 89, total_tokens: 1785, prompt_tokens_details: { cached_tokens: 1024 } }),
    ]);
    expect(sink.final).to.have.length(1);
    expect(sink.final[0]).to.deep.include({
      input_tokens: 1696,
      output_tokens: 89,
      total_tokens: 1785,
      cached_input_tokens: 1024,
      cache_write_tokens: 200,
    });
  });

  it('streams thinking as reasoning_content and ignores signatures', () => {
    const id = 'msg_01ThinkStream';
    const sink = run(fixture('anthropic/stream_thinking.txt'));
    expect(sink.chunks).to.deep.equal([
      chunk(id, { role: 'assistant', content: '' }),
      chunk(id, { reasoning_content: 'x + 5 = 12, so' }),
      chunk(id, { reasoning_content: ' x = 7.' }),
      chunk(id, { content: 'x = 7' }),
      chunk(id, {}, 'length'),
      usageChunk(id, { prompt_tokens: 53, completion_tokens: 42, total_tokens: 95, prompt_tokens_details: { cached_tokens: 0 } }),
    ]);
  });

  it('throws the mapped provider error on `event: error`, after relaying what came before', () => {
    const sink = new Collector();
    const stream = new AnthropicChatStream({ modelId: MODEL, created: CREATED });
    const events = fixture('anthropic/stream_error.txt');
    const err = thrownGatewayError(() => {
      for (const event of events) stream.onEvent(event, sink);
    });
    expect([err.status, err.type, err.code, err.provider, err.retryable, err.message]).to.deep.equal([
      502,
      'provider_error',
      'overloaded_error',
      'anthropic',
      true,
      'Overloaded',
    ]);
    expect(sink.chunks.map((c) => c.choices[0]?.delta)).to.deep.equal([{ role: 'assistant', content: '' }, { content: 'Once upon' }]);
    expect(sink.final.map((u) => [u.input_tokens, u.output_tokens, u.total_tokens])).to.deep.equal([[12, 1, 13]]);
  });

  it('uses the given id and provider name', () => {
    const sink = run(fixture('recorded/anthropic/messages_stream.txt'), { id: 'chatcmpl-fixed', modelId: MODEL, created: CREATED, provider: 'anthropic-eu' });
    expect(sink.chunks.map((c) => c.id)).to.deep.equal(['chatcmpl-fixed', 'chatcmpl-fixed', 'chatcmpl-fixed', 'chatcmpl-fixed']);
    const stream = new AnthropicChatStream({ modelId: MODEL, created: CREATED, provider: 'anthropic-eu' });
    const err = thrownGatewayError(() =>
      stream.onEvent({ event: 'error', data: '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}' }, new Collector()),
    );
    expect([err.status, err.type, err.code, err.provider, err.retryable]).to.deep.equal([429, 'rate_limit_error', 'rate_limit_error', 'anthropic-eu', true]);
  });

  it("takes the upstream message's model when no model id is given", () => {
    const sink = run(fixture('recorded/anthropic/messages_stream.txt'), { created: CREATED });
    expect(sink.chunks.map((c) => c.model)).to.deep.equal(Array(4).fill('claude-sonnet-4-20250514'));
  });

  it('finishes in onEnd when only message_stop is missing', () => {
    const events = fixture('recorded/anthropic/messages_stream.txt').filter((e) => e.event !== 'message_stop');
    const sink = run(events);
    expect(sink.chunks).to.have.length(4);
    expect(sink.chunks[3]?.usage).to.deep.equal({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 } });
    expect(sink.final).to.have.length(1);
  });

  it('reports the usage so far and fails when the stream is cut before the finish', () => {
    const events = fixture('recorded/anthropic/messages_stream.txt').slice(0, 4);
    const sink = new Collector();
    const stream = new AnthropicChatStream({ modelId: MODEL, created: CREATED });
    for (const event of events) stream.onEvent(event, sink);
    const err = thrownGatewayError(() => stream.onEnd(sink));
    expect([err.status, err.type, err.provider, err.retryable]).to.deep.equal([502, 'provider_error', 'anthropic', true]);
    expect(sink.usages.map((u) => [u.input_tokens, u.output_tokens])).to.deep.equal([[10, 3], [10, 3]]);
    expect(sink.chunks.every((c) => c.usage === undefined)).to.equal(true);
  });

  it('rejects malformed event data', () => {
    const stream = new AnthropicChatStream({ modelId: MODEL, created: CREATED });
    const err = thrownGatewayError(() => stream.onEvent({ event: 'content_block_delta', data: '{"type":' }, new Collector()));
    expect([err.status, err.type]).to.deep.equal([502, 'provider_error']);
  });

  it('ignores unknown event types and anything after message_stop', () => {
    const events = fixture('recorded/anthropic/messages_stream.txt');
    const unknown: SseEvent = { event: 'content_block_hint', data: '{"type":"content_block_hint","index":0}' };
    const late: SseEvent = { event: 'content_block_delta', data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"late"}}' };
    const sink = run([...events.slice(0, 2), unknown, ...events.slice(2), late]);
    expect(sink.chunks).to.have.length(4);
    expect(sink.final).to.have.length(1);
  });
});
