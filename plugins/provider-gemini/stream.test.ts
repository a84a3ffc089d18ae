import { expect } from 'chai';
import { isGatewayError, type GatewayError } from '../../core/errors.js';
import type { ChatCompletionChunk, ToolCallDelta } from '../../core/types/chat.js';
import { fromGeminiResponse } from './response.js';
import { GeminiChatStream } from './stream.js';
import { fixtureText, RecordingSink, sseEvents } from './test-fixtures.js';
import type { SignatureCarrier } from './thought-signature.js';
import type { GeminiGenerateResponse } from './types.js';

const MODEL = 'gemini/gemini-2.5-pro';
const ID = 'chatcmpl-gem-s1';
const CREATED = 1750000100;

function run(body: string, provider?: string): { sink: RecordingSink<ChatCompletionChunk>; error: GatewayError | undefined } {
  const stream = new GeminiChatStream(provider === undefined ? { modelId: MODEL, id: ID, created: CREATED } : { modelId: MODEL, id: ID, created: CREATED, provider });
  const sink = new RecordingSink<ChatCompletionChunk>();
  try {
    for (const event of sseEvents(body)) stream.onEvent(event, sink);
    stream.onEnd(sink);
  } catch (err) {
    if (!isGatewayError(err)) throw err;
    return { sink, error: err };
  }
  return { sink, error: undefined };
}

function chunk(choices: ChatCompletionChunk['choices'], usage?: ChatCompletionChunk['usage']): ChatCompletionChunk {
  const c: ChatCompletionChunk = { id: ID, object: 'chat.completion.chunk', created: CREATED, model: MODEL, choices };
  if (usage !== undefined) c.usage = usage;
  return c;
}

describe('GeminiChatStream', () => {
  it('streams thoughts, text, the finish and the final usage', () => {
    const { sink, error } = run(fixtureText('stream-thinking.txt'));
    expect(error).to.equal(undefined);
    expect(sink.emitted).to.deep.equal([
      chunk([{ index: 0, delta: { role: 'assistant', reasoning_content: '**Drafting the haiku**\n\nI want an autumn image in 5-7-5: rain on a window, then a small human detail to close it.\n\n' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: 'Gentle autumn rain\n' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: 'taps the window, soft and slow—\nthe tea has gone cold.' }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      chunk([], {
        prompt_tokens: 14,
        completion_tokens: 332,
        total_tokens: 346,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 313, audio_tokens: 0 },
      }),
    ]);
    // Usage is reported as it grows, and once more at the end.
    expect(sink.usages.map((u) => [u.input_tokens, u.output_tokens, u.reasoning_tokens])).to.deep.equal([
      [14, 313, 313], [14, 318, 313], [14, 332, 313], [14, 332, 313],
    ]);
    expect(sink.usages[3]?.raw).to.deep.equal({
      promptTokenCount: 14, candidatesTokenCount: 19, totalTokenCount: 346,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 14 }], thoughtsTokenCount: 313,
    });
  });

  it('streams a whole function call as one tool_calls delta and finishes with tool_calls', () => {
    const { sink } = run(fixtureText('stream-tools.txt'));
    const call: ToolCallDelta & SignatureCarrier = {
      index: 0,
      id: 'call_0',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"location":"Tokyo"}' },
      extra_content: { google: { thought_signature: 'EqQBCqEBAdHtim8Wl7bY2c+9dUu0Zz3YvYk2sBZp' } },
    };
    expect(sink.emitted.slice(0, 2)).to.deep.equal([
      chunk([{ index: 0, delta: { role: 'assistant', tool_calls: [call] }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
    ]);
    expect(sink.emitted[2]?.usage).to.deep.include({ prompt_tokens: 58, completion_tokens: 79, total_tokens: 137 });
    expect(sink.emitted).to.have.length(3);
  });

  it('reassembles to what the non-streaming translator gives', () => {
    const events = sseEvents(fixtureText('stream-tools.txt')).map((e) => JSON.parse(e.data) as GeminiGenerateResponse);
    const whole: GeminiGenerateResponse = {
      candidates: [{
        content: { role: 'model', parts: events.flatMap((e) => e.candidates?.[0]?.content?.parts ?? []) },
        finishReason: 'STOP',
      }],
      usageMetadata: events[events.length - 1]?.usageMetadata,
    };
    const { completion } = fromGeminiResponse(whole, MODEL, ID, CREATED);
    const { sink } = run(fixtureText('stream-tools.txt'));
    const streamedCall = sink.emitted[0]?.choices[0]?.delta.tool_calls?.[0];
    const { index: _index, ...call } = streamedCall ?? { index: -1 };
    expect(call).to.deep.equal(completion.choices[0]?.message.tool_calls?.[0]);
    expect(sink.emitted[2]?.usage).to.deep.equal(completion.usage);
  });

  it('relays what came before an in-stream error, then throws it mapped', () => {
    const { sink, error } = run(fixtureText('stream-error.txt'), 'google-ai');
    expect(sink.emitted).to.deep.equal([
      chunk([{ index: 0, delta: { role: 'assistant', content: 'The first three planets are' }, finish_reason: null }]),
    ]);
    expect(sink.usages).to.have.length(1);
    expect(error?.status).to.equal(502);
    expect(error?.type).to.equal('provider_error');
    expect(error?.code).to.equal('UNAVAILABLE');
    expect(error?.message).to.equal('The model is overloaded. Please try again later.');
    expect(error?.provider).to.equal('google-ai');
    expect(error?.retryable).to.equal(true);
  });

  it('finishes a blocked prompt with content_filter', () => {
    const body = 'data: {"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":11,"totalTokenCount":11}}\r\n\r\n';
    const { sink } = run(body);
    expect(sink.emitted[0]).to.deep.equal(chunk([{ index: 0, delta: { role: 'assistant' }, finish_reason: 'content_filter' }]));
    expect(sink.emitted[1]?.usage?.prompt_tokens).to.equal(11);
  });

  it('maps a filtered finish and sends the role with it when nothing came before', () => {
    const { sink } = run('data: {"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"SAFETY","index":0}]}\n\n');
    expect(sink.emitted[0]).to.deep.equal(chunk([{ index: 0, delta: { role: 'assistant' }, finish_reason: 'content_filter' }]));
  });

  it('always sends the usage chunk but reports no usage Gemini never gave', () => {
    const { sink } = run('data: {"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP"}]}\n\n');
    expect(sink.emitted[2]).to.deep.equal(chunk([], {
      prompt_tokens: 0, completion_tokens: 0, total_tokens: 0,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    }));
    expect(sink.usages).to.deep.equal([]);
  });

  it("takes Gemini's responseId as the chunk id when none is given", () => {
    const stream = new GeminiChatStream({ modelId: MODEL, created: CREATED });
    const sink = new RecordingSink<ChatCompletionChunk>();
    for (const event of sseEvents(fixtureText('stream-thinking.txt'))) stream.onEvent(event, sink);
    stream.onEnd(sink);
    expect(new Set(sink.emitted.map((c) => c.id))).to.deep.equal(new Set(['Xm88aPW3DZqoz7IP9v2Z4AQ']));
  });

  it('rejects event data that is not JSON', () => {
    const { error } = run('data: {"candidates": [\n\n');
    expect(error?.status).to.equal(502);
    expect(error?.provider).to.equal('gemini');
  });
});
