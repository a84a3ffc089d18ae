import { expect } from 'chai';
import type { ChatCompletion, ChatMessage, FinishReason } from '../../core/types/chat.js';
import type { ResponseObject, ResponsesInputItem, ResponsesRequest } from '../../core/types/responses.js';
import { usageFromChat } from '../../core/usage-mapping.js';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import { fromChatCompletion } from './from-chat-completion.js';
import { DEFAULT_ECHO } from './test-fixtures.js';
import { toChatRequest } from './to-chat-request.js';

const STAMP = { token: 'tok', completedAt: 1769092740 };
const REQUEST: ResponsesRequest = { model: 'openai-compat/gpt-4o-mini', input: 'Say hello' };

function completion(message: ChatMessage, finish: FinishReason | null = 'stop'): ChatCompletion {
  return { id: 'chatcmpl-1', object: 'chat.completion', created: 1769000000, model: 'deepseek-reasoner', choices: [{ index: 0, message, finish_reason: finish }] };
}

function translate(c: ChatCompletion, request: ResponsesRequest = REQUEST): ResponseObject {
  return fromChatCompletion(c, request, c.usage ? usageFromChat(c.usage) : null, STAMP);
}

describe('responses-adapter fromChatCompletion', () => {
  it('turns the recorded OpenAI completion into the response a native call gives', () => {
    expect(translate(fixtureJson<ChatCompletion>('recorded/openai/chat_completion.json'))).to.deep.equal({
      id: 'resp_tok',
      object: 'response',
      created_at: 1769092737,
      status: 'completed',
      completed_at: 1769092740,
      incomplete_details: null,
      model: 'gpt-4o-mini-2024-07-18',
      output: [
        {
          id: 'msg_tok_0',
          type: 'message',
          status: 'completed',
          content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello, World!' }],
          role: 'assistant',
        },
      ],
      usage: { input_tokens: 17, input_tokens_details: { cached_tokens: 0 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 21 },
      ...DEFAULT_ECHO,
    });
  });

  it('echoes the request settings a real response carries', () => {
    const request: ResponsesRequest = {
      model: 'groq/llama',
      input: 'x',
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: false }],
      tool_choice: 'required',
      temperature: 0.3,
      top_p: 0.8,
      max_output_tokens: 50,
      parallel_tool_calls: false,
      text: { format: { type: 'json_object' } },
      reasoning: { effort: 'low', summary: 'auto' },
      metadata: { team: 'a' },
      user: 'u-1',
      store: true,
    };
    const res = translate(completion({ role: 'assistant', content: '{}' }), request);
    expect(res).to.deep.include({
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: false }],
      tool_choice: 'required',
      temperature: 0.3,
      top_p: 0.8,
      max_output_tokens: 50,
      parallel_tool_calls: false,
      text: { format: { type: 'json_object' } },
      reasoning: { effort: 'low', summary: 'auto' },
      metadata: { team: 'a' },
      user: 'u-1',
      store: false,
    });
  });

  it('turns tool calls into function_call items (the recorded OpenAI tool call)', () => {
    const res = translate(fixtureJson<ChatCompletion>('recorded/openai/chat_with_tools.json'));
    expect(res.status).to.equal('completed');
    expect(res.output).to.deep.equal([
      { id: 'fc_tok_0', type: 'function_call', status: 'completed', arguments: '{"location":"Paris"}', call_id: 'call_X8zi23yeE70r4qiZ2lhIuRNK', name: 'get_weather' },
    ]);
  });

  it('puts reasoning first as a summary, then the text, then the calls', () => {
    const res = translate(completion({
      role: 'assistant',
      reasoning_content: 'Need the weather.',
      content: 'Let me check.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ],
    }, 'tool_calls'));
    expect(res.output).to.deep.equal([
      { id: 'rs_tok_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need the weather.' }] },
      { id: 'msg_tok_1', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Let me check.' }], role: 'assistant' },
      { id: 'fc_tok_2', type: 'function_call', status: 'completed', arguments: '{"city":"Paris"}', call_id: 'call_1', name: 'get_weather' },
      { id: 'fc_tok_3', type: 'function_call', status: 'completed', arguments: '{}', call_id: 'call_2', name: 'get_time' },
    ]);
  });

  it('reads `reasoning` too (OpenRouter, Groq, vLLM)', () => {
    const res = translate(completion({ role: 'assistant', reasoning: 'Hmm.', content: 'Yes.' }));
    expect(res.output[0]).to.deep.equal({ id: 'rs_tok_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Hmm.' }] });
  });

  it('is incomplete with max_output_tokens when the provider stopped at the length limit', () => {
    const res = translate(completion({ role: 'assistant', content: 'Once upon a' }, 'length'));
    expect(res.status).to.equal('incomplete');
    expect(res.incomplete_details).to.deep.equal({ reason: 'max_output_tokens' });
    expect(res.output[0]!.status).to.equal('incomplete');
    const filtered = translate(completion({ role: 'assistant', content: '' }, 'content_filter'));
    expect([filtered.status, filtered.incomplete_details]).to.deep.equal(['incomplete', { reason: 'content_filter' }]);
  });

  it('gives refusals their own content part, and an empty answer an empty message', () => {
    expect(translate(completion({ role: 'assistant', content: null, refusal: 'I cannot help with that.' })).output[0]!.content).to.deep.equal([
      { type: 'refusal', refusal: 'I cannot help with that.' },
    ]);
    expect(translate(completion({ role: 'assistant', content: null })).output).to.deep.equal([
      { id: 'msg_tok_0', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: '' }], role: 'assistant' },
    ]);
  });

  it('maps cached and reasoning tokens into the Responses usage (recorded o3-mini completion)', () => {
    expect(translate(fixtureJson<ChatCompletion>('recorded/openai/chat_completion_reasoning.json')).usage).to.deep.equal({
      input_tokens: 13,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 85,
      output_tokens_details: { reasoning_tokens: 64 },
      total_tokens: 98,
    });
  });

  it('round-trips a tool call: its output items, sent back with the results, give chat the same calls', () => {
    const chatAnswer = fixtureJson<ChatCompletion>('recorded/openai/chat_with_tools.json');
    const first = translate(chatAnswer);
    const next = toChatRequest({
      model: 'openai-compat/gpt-4o-mini',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        ...(first.output as ResponsesInputItem[]),
        { type: 'function_call_output', call_id: 'call_X8zi23yeE70r4qiZ2lhIuRNK', output: '{"temp_c":18}' },
      ],
    });
    expect(next.messages).to.deep.equal([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: chatAnswer.choices[0]!.message.tool_calls },
      { role: 'tool', tool_call_id: 'call_X8zi23yeE70r4qiZ2lhIuRNK', content: '{"temp_c":18}' },
    ]);
  });
});
