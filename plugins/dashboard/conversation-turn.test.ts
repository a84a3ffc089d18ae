// The conversation view's reader on recorded provider payloads the integration test does not
// send: tool calls, thinking, a Responses stream transcript, a body the audit cut short.
import { expect } from 'chai';
import { fixtureJson, fixtureText } from '../../test/helpers/fixtures.js';
import { turnOf } from './app/conversation-turn.js';

describe('conversation view: reading a call\'s text', () => {
  const ask = { messages: [{ role: 'user', content: 'weather in Paris?' }] };

  it('names tool calls in an answer, beside its text', () => {
    expect(turnOf(ask, fixtureJson('recorded/openai/chat_with_tools.json')).assistant).to.equal('[tool call: get_weather]');
    expect(turnOf(ask, fixtureJson('recorded/anthropic/messages_with_tools.json')).assistant).to.equal("I'll check the current weather in Paris for you.\n[tool call: get_weather]");
    const responses = { object: 'response', output: [{ type: 'reasoning', summary: [] }, { type: 'function_call', name: 'get_weather', arguments: '{}' }] };
    expect(turnOf({ input: 'weather?' }, responses)).to.deep.equal({ user: 'weather?', assistant: '[tool call: get_weather]' });
  });

  it('leaves thinking out of the answer', () => {
    expect(turnOf(ask, fixtureJson('recorded/anthropic/messages_extended_thinking.json')).assistant).to.match(/^To solve for x in the equation x \+ 5 = 12/);
  });

  it('reads a Responses stream transcript by its completed event, and an OpenAI-compatible one by its deltas', () => {
    expect(turnOf(ask, fixtureText('recorded/openai/responses_stream.txt')).assistant).to.equal('Hello, World!');
    expect(turnOf(ask, fixtureText('recorded/groq/chat_completion_stream.txt')).assistant).to.equal(fixtureJson<{ choices: Array<{ message: { content: string } }> }>('recorded/groq/chat_completion.json').choices[0]!.message.content);
  });

  it('finds no text in a body the audit cut (kept as text) or in a tool result turn', () => {
    expect(turnOf('{"messages":[{"role":"user","content":"hel', '{"choices":[{"message":{"content":"Hi')).to.deep.equal({ user: null, assistant: null });
    expect(turnOf({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: '18°C' }] }] }, null)).to.deep.equal({ user: '[tool result]', assistant: null });
  });
});
