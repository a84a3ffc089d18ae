import { expect } from 'chai';
import type { ChatCompletion } from '../../core/types/chat.js';
import { fromGeminiResponse, usageFromGemini } from './response.js';
import { fixtureJson } from './test-fixtures.js';
import type { GeminiGenerateResponse } from './types.js';

const MODEL = 'gemini/gemini-2.5-flash';
const ID = 'chatcmpl-gem-1';
const CREATED = 1750000000;

function translate(res: GeminiGenerateResponse): ReturnType<typeof fromGeminiResponse> {
  return fromGeminiResponse(res, MODEL, ID, CREATED);
}

describe('fromGeminiResponse', () => {
  it('splits thought text from the answer and counts thoughts as output', () => {
    const res = fixtureJson<GeminiGenerateResponse>('generate-content-thinking.json');
    const { completion, usage } = translate(res);
    const expected: ChatCompletion = {
      id: ID,
      object: 'chat.completion',
      created: CREATED,
      model: MODEL,
      choices: [{
        index: 0,
        message: {
          role: 'assistant',
          content: '9.9 is larger. Both numbers have 9 as the whole part, and in the tenths place 9.9 has a 9 while 9.11 has a 1, so 9.9 > 9.11.',
          reasoning_content: "**Comparing decimal values**\n\nI'm lining the two numbers up by place value. Both share the whole part 9, so the tenths digit decides: 9.9 has 9 tenths while 9.11 has only 1 tenth.\n\n",
        },
        finish_reason: 'stop',
      }],
      usage: {
        prompt_tokens: 1289,
        completion_tokens: 252,
        total_tokens: 1541,
        prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 211, audio_tokens: 0 },
      },
    };
    expect(completion).to.deep.equal(expected);
    expect(usage).to.deep.equal({
      input_tokens: 1289,
      output_tokens: 252,
      total_tokens: 1541,
      cached_input_tokens: 1024,
      cache_write_tokens: 0,
      reasoning_tokens: 211,
      audio_input_tokens: 0,
      audio_output_tokens: 0,
      raw: res.usageMetadata,
    });
    // Gemini's own total agrees: thoughts are outside candidatesTokenCount.
    expect(usage.total_tokens).to.equal(res.usageMetadata?.totalTokenCount);
  });

  it('turns function calls into tool calls with generated ids and the thought signature', () => {
    const { completion, usage } = translate(fixtureJson<GeminiGenerateResponse>('generate-content-tools.json'));
    expect(completion.choices).to.deep.equal([{
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Tokyo","unit":"celsius"}' },
            extra_content: { google: { thought_signature: 'CpwCAdHtim9Xq3Lb0sJ8u2c1JrYH5k0tq0Zb7lq1mHc2w4rVqg==' } },
          },
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    }]);
    expect([usage.input_tokens, usage.output_tokens, usage.reasoning_tokens, usage.total_tokens]).to.deep.equal([96, 160, 118, 256]);
  });

  it('answers a blocked prompt with content_filter and empty content', () => {
    const { completion, usage } = translate(fixtureJson<GeminiGenerateResponse>('generate-content-blocked.json'));
    expect(completion.choices).to.deep.equal([{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }]);
    expect(completion.usage).to.deep.equal({
      prompt_tokens: 17,
      completion_tokens: 0,
      total_tokens: 17,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    });
    expect(usage.input_tokens).to.equal(17);
  });

  it('maps each finish reason', () => {
    const reasonOf = (finishReason: string) =>
      translate({ candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] }, finishReason }] }).completion.choices[0]?.finish_reason;
    expect(reasonOf('STOP')).to.equal('stop');
    expect(reasonOf('MAX_TOKENS')).to.equal('length');
    for (const filtered of ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']) {
      expect(reasonOf(filtered), filtered).to.equal('content_filter');
    }
    expect(reasonOf('OTHER')).to.equal('stop');
    expect(reasonOf('MALFORMED_FUNCTION_CALL')).to.equal('stop');
  });

  it('keeps a call id Gemini sent, and length over tool_calls when the answer was cut', () => {
    const { completion } = translate({
      candidates: [{
        content: { role: 'model', parts: [{ text: 'Checking.' }, { functionCall: { name: 'now', id: 'fc-7f3a' } }] },
        finishReason: 'MAX_TOKENS',
      }],
    });
    expect(completion.choices[0]).to.deep.equal({
      index: 0,
      message: {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'fc-7f3a', type: 'function', function: { name: 'now', arguments: '{}' } }],
      },
      finish_reason: 'length',
    });
  });

  it('gives one choice per candidate, numbering calls across them', () => {
    const { completion } = translate({
      candidates: [
        { content: { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }] }, finishReason: 'STOP', index: 0 },
        { content: { role: 'model', parts: [{ functionCall: { name: 'b', args: { n: 1 } } }] }, finishReason: 'STOP', index: 1 },
      ],
    });
    expect(completion.choices.map((c) => [c.index, c.message.tool_calls?.[0]?.id, c.finish_reason])).to.deep.equal([
      [0, 'call_0', 'tool_calls'],
      [1, 'call_1', 'tool_calls'],
    ]);
  });

  it('ignores signature-only parts', () => {
    const { completion } = translate({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }, { thoughtSignature: 'c2ln' }] }, finishReason: 'STOP' }],
    });
    expect(completion.choices[0]?.message).to.deep.equal({ role: 'assistant', content: 'Hi' });
  });
});

describe('usageFromGemini', () => {
  it('counts tool-use prompt tokens as input and audio by modality', () => {
    expect(usageFromGemini({
      promptTokenCount: 120,
      toolUsePromptTokenCount: 30,
      candidatesTokenCount: 40,
      thoughtsTokenCount: 10,
      totalTokenCount: 200,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 20 }, { modality: 'AUDIO', tokenCount: 100 }],
      candidatesTokensDetails: [{ modality: 'AUDIO', tokenCount: 40 }],
    })).to.deep.include({
      input_tokens: 150,
      output_tokens: 50,
      total_tokens: 200,
      reasoning_tokens: 10,
      audio_input_tokens: 100,
      audio_output_tokens: 40,
    });
  });

  it('is all zeros with a null raw when Gemini sent no usage', () => {
    expect(usageFromGemini(undefined)).to.deep.equal({
      input_tokens: 0, output_tokens: 0, total_tokens: 0, cached_input_tokens: 0, cache_write_tokens: 0,
      reasoning_tokens: 0, audio_input_tokens: 0, audio_output_tokens: 0, raw: null,
    });
  });
});
