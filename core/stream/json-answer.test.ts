import { expect } from 'chai';
import { thrownGatewayError } from '../../test/helpers/errors.js';
import type { ChatCompletion } from '../types/chat.js';
import { completionChunks, isJsonAnswer, replayedChat } from './json-answer.js';

describe('a chat completion replayed as a stream', () => {
  it('gives each choice its message as one delta (tool calls indexed), then its finish reason, then the usage', () => {
    const completion: ChatCompletion = {
      id: 'c1',
      object: 'chat.completion',
      created: 7,
      model: 'm',
      choices: [
        { index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }, { id: 't2', type: 'function', function: { name: 'g', arguments: '{}' } }] }, finish_reason: 'tool_calls' },
        { index: 1, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop', logprobs: null },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    };
    const head = { id: 'c1', object: 'chat.completion.chunk', created: 7, model: 'm' };
    expect(completionChunks(completion)).to.deep.equal([
      { ...head, choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }, { index: 1, id: 't2', type: 'function', function: { name: 'g', arguments: '{}' } }] }, finish_reason: null }] },
      { ...head, choices: [{ index: 1, delta: { role: 'assistant', content: 'hi' }, finish_reason: null, logprobs: null }] },
      { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { ...head, choices: [{ index: 1, delta: {}, finish_reason: 'stop' }] },
      { ...head, choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
    ]);
  });

  it('refuses, as a 502, JSON that is not a chat completion with text content', () => {
    for (const body of [{ error: { message: 'x' } }, { choices: [{ index: 0, message: { role: 'assistant', content: [{ type: 'text', text: 'x' }] } }] }]) {
      const err = thrownGatewayError(() => replayedChat('p', body, null));
      expect([err.status, err.type, err.code, err.provider]).to.deep.equal([502, 'provider_error', 'stream_expected', 'p']);
    }
  });

  it('tells a JSON answer by its content type', () => {
    expect(['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'text/event-stream', 'application/jsonl', undefined].map((type) => isJsonAnswer({ 'content-type': type }))).to.deep.equal([true, true, true, false, false, false]);
  });
});
