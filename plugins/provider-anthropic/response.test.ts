import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { fromAnthropicMessage, usageFromAnthropic } from './response.js';
import type { AnthropicMessage } from './types.js';

const CREATED = 1_750_000_000;

function recorded(name: string): AnthropicMessage {
  return JSON.parse(readFileSync(new URL(`../../test/fixtures/recorded/anthropic/${name}`, import.meta.url), 'utf8')) as AnthropicMessage;
}

function handWritten(name: string): AnthropicMessage {
  return JSON.parse(readFileSync(new URL(`../../test/fixtures/anthropic/${name}`, import.meta.url), 'utf8')) as AnthropicMessage;
}

const ZERO_CACHE_RAW = {
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  service_tier: 'standard',
};

describe('provider-anthropic fromAnthropicMessage', () => {
  it('translates the recorded plain message', () => {
    const { completion, usage } = fromAnthropicMessage(recorded('messages.json'), 'anthropic/claude-sonnet-4', CREATED);
    expect(completion).to.deep.equal({
      id: 'msg_013LBDy1nvGiRgxiRAWseYRS',
      object: 'chat.completion',
      created: CREATED,
      model: 'anthropic/claude-sonnet-4',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello World' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 14, completion_tokens: 5, total_tokens: 19, prompt_tokens_details: { cached_tokens: 0 } },
    });
    expect(usage).to.deep.equal({
      input_tokens: 14,
      output_tokens: 5,
      total_tokens: 19,
      cached_input_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      audio_input_tokens: 0,
      audio_output_tokens: 0,
      raw: { input_tokens: 14, output_tokens: 5 },
    });
  });

  it('translates the recorded tool call', () => {
    const { completion, usage } = fromAnthropicMessage(recorded('messages_with_tools.json'), 'claude', CREATED);
    expect(completion.choices).to.deep.equal([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: "I'll check the current weather in Paris for you.",
          tool_calls: [{ id: 'toolu_01Dq95J3WcnLmvSvBpAuaXwi', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ]);
    expect(completion.usage).to.deep.equal({ prompt_tokens: 380, completion_tokens: 65, total_tokens: 445, prompt_tokens_details: { cached_tokens: 0 } });
    expect(usage.raw).to.deep.equal({ input_tokens: 380, output_tokens: 65, ...ZERO_CACHE_RAW });
  });

  it('puts the recorded thinking block in reasoning_content', () => {
    const msg = recorded('messages_extended_thinking.json');
    const { completion, usage } = fromAnthropicMessage(msg, 'claude', CREATED);
    expect(completion.choices[0]?.message).to.deep.equal({
      role: 'assistant',
      content:
        "To solve for x in the equation x + 5 = 12, I need to isolate x.\n\nI'll subtract 5 from both sides:\nx + 5 = 12\nx + 5 - 5 = 12 - 5\nx = 7\n\nLet me verify: 7 + 5 = 12 ✓\n\nTherefore, x = 7.",
      reasoning_content:
        'I need to solve for x in the equation x + 5 = 12.\n\nTo isolate x, I need to subtract 5 from both sides of the equation:\n\nx + 5 = 12\nx + 5 - 5 = 12 - 5\nx = 7\n\nLet me check: If x = 7, then x + 5 = 7 + 5 = 12 ✓\n\nSo x = 7.',
    });
    expect(completion.choices[0]?.finish_reason).to.equal('stop');
    expect([usage.input_tokens, usage.output_tokens, usage.total_tokens, usage.reasoning_tokens]).to.deep.equal([53, 211, 264, 0]);
  });

  it('maps the recorded stop_sequence stop to "stop"', () => {
    const { completion } = fromAnthropicMessage(recorded('messages_with_params.json'), 'claude', CREATED);
    expect(completion.choices).to.deep.equal([{ index: 0, message: { role: 'assistant', content: '1, 2, ' }, finish_reason: 'stop' }]);
    expect(completion.usage).to.deep.equal({ prompt_tokens: 25, completion_tokens: 8, total_tokens: 33, prompt_tokens_details: { cached_tokens: 0 } });
  });

  it('translates the recorded multimodal and multi-turn answers', () => {
    const multimodal = fromAnthropicMessage(recorded('messages_multimodal.json'), 'claude', CREATED).completion;
    expect(multimodal.id).to.equal('msg_01EhF3inwGP9NXuBMrwkUWy1');
    expect(multimodal.choices[0]?.message.content).to.match(/^In this Google logo, I can see four main colors:\n\n1\. \*\*Blue\*\*/);
    expect(multimodal.usage).to.deep.equal({ prompt_tokens: 159, completion_tokens: 100, total_tokens: 259, prompt_tokens_details: { cached_tokens: 0 } });
    const multiTurn = fromAnthropicMessage(recorded('messages_multi_turn.json'), 'claude', CREATED).completion;
    expect(multiTurn.choices).to.deep.equal([{ index: 0, message: { role: 'assistant', content: '16' }, finish_reason: 'stop' }]);
    expect(multiTurn.usage?.total_tokens).to.equal(33);
  });

  it('counts cache reads and writes inside the prompt (Anthropic input_tokens excludes them)', () => {
    const { completion, usage } = fromAnthropicMessage(handWritten('message_cached.json'), 'claude', CREATED);
    expect(completion.choices).to.deep.equal([
      { index: 0, message: { role: 'assistant', content: 'The contract ends on 31 March.' }, finish_reason: 'length' },
    ]);
    expect(completion.usage).to.deep.equal({
      prompt_tokens: 2257,
      completion_tokens: 9,
      total_tokens: 2266,
      prompt_tokens_details: { cached_tokens: 2048 },
    });
    expect(usage).to.deep.include({
      input_tokens: 2257,
      output_tokens: 9,
      total_tokens: 2266,
      cached_input_tokens: 2048,
      cache_write_tokens: 188,
      reasoning_tokens: 0,
    });
  });

  it('leaves content null for a tool-only answer and skips redacted thinking', () => {
    const msg: AnthropicMessage = {
      id: 'msg_x',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-20250514',
      content: [
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
        { type: 'tool_use', id: 'toolu_a', name: 'now', input: {} },
        { type: 'tool_use', id: 'toolu_b', name: 'find', input: { q: 'a "b"', n: 2 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 4 },
    };
    expect(fromAnthropicMessage(msg, 'claude', CREATED).completion.choices[0]).to.deep.equal({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'toolu_a', type: 'function', function: { name: 'now', arguments: '{}' } },
          { id: 'toolu_b', type: 'function', function: { name: 'find', arguments: '{"q":"a \\"b\\"","n":2}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('maps every stop_reason', () => {
    const reasons = ['end_turn', 'stop_sequence', 'pause_turn', 'max_tokens', 'model_context_window_exceeded', 'tool_use', 'refusal'] as const;
    const finish = reasons.map((stop_reason) => {
      const msg: AnthropicMessage = { ...recorded('messages.json'), stop_reason };
      return fromAnthropicMessage(msg, 'claude', CREATED).completion.choices[0]?.finish_reason;
    });
    expect(finish).to.deep.equal(['stop', 'stop', 'stop', 'length', 'length', 'tool_calls', 'content_filter']);
  });

  it('uses the current time when no created is given', () => {
    const before = Math.floor(Date.now() / 1000);
    const { completion } = fromAnthropicMessage(recorded('messages.json'), 'claude');
    expect(completion.created).to.be.within(before, before + 1);
  });
});

describe('provider-anthropic usageFromAnthropic', () => {
  it('treats missing or null cache counts as zero', () => {
    expect(usageFromAnthropic({ input_tokens: 7, output_tokens: 2, cache_read_input_tokens: null })).to.deep.include({
      input_tokens: 7,
      total_tokens: 9,
      cached_input_tokens: 0,
      cache_write_tokens: 0,
    });
  });
});
