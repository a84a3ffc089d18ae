import { expect } from 'chai';
import type { ChatCompletionChunk } from '../types/chat.js';
import { ChatCompletionBuilder } from './chat-completion-builder.js';

const chunk = (toolCall: Record<string, unknown>): ChatCompletionChunk =>
  ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { tool_calls: [toolCall] }, finish_reason: null }] }) as unknown as ChatCompletionChunk;

describe('chat completion builder', () => {
  it("keeps the members a provider adds to a tool call, whichever provider, the last value standing", () => {
    const builder = new ChatCompletionBuilder();
    builder.add(chunk({ index: 0, id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"loc' }, extra_content: { signature: 'a' } }));
    builder.add(chunk({ index: 0, function: { arguments: 'ation":"Tokyo"}' }, extra_content: { signature: 'b' }, vendor_note: 1 }));
    expect(builder.result().choices[0]!.message.tool_calls).to.deep.equal([
      { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Tokyo"}' }, extra_content: { signature: 'b' }, vendor_note: 1 },
    ]);
  });
});
