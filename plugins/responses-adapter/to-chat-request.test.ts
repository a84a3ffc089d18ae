import { expect } from 'chai';
import { isGatewayError } from '../../core/errors.js';
import type { ChatMessage } from '../../core/types/chat.js';
import type { ResponsesRequest } from '../../core/types/responses.js';
import { toChatRequest } from './to-chat-request.js';

const MODEL = 'groq/llama-3.3-70b-versatile';

type Tool = NonNullable<ResponsesRequest['tools']>[number];

function req(fields: Partial<ResponsesRequest>): ResponsesRequest {
  return { model: MODEL, input: 'hi', ...fields };
}

/** [status, type, code, param] of the 400 the request is refused with. */
function refusal(request: ResponsesRequest): [number, string, string | null, string | null] {
  try {
    toChatRequest(request);
  } catch (err) {
    if (!isGatewayError(err)) throw err;
    return [err.status, err.type, err.code, err.param];
  }
  throw new Error('expected the request to be refused');
}

function messages(input: ResponsesRequest['input'], instructions?: string): ChatMessage[] {
  return toChatRequest(req({ input, instructions })).messages;
}

describe('responses-adapter toChatRequest', () => {
  it('puts instructions first as a system message and a string input as the user message', () => {
    expect(toChatRequest(req({ instructions: 'Be brief.', input: 'Say hello', stream: true }))).to.deep.equal({
      model: MODEL,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      stream: true,
    });
  });

  it('maps every generation setting to its chat counterpart', () => {
    const chat = toChatRequest(req({
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 300,
      reasoning: { effort: 'high', summary: 'auto' },
      user: 'u-1',
      service_tier: 'flex',
      safety_identifier: 'sid',
      prompt_cache_key: 'pck',
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true, description: 'd' }, verbosity: 'low' } as ResponsesRequest['text'],
    }));
    expect(chat).to.deep.equal({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.2,
      top_p: 0.9,
      user: 'u-1',
      service_tier: 'flex',
      safety_identifier: 'sid',
      prompt_cache_key: 'pck',
      max_completion_tokens: 300,
      reasoning_effort: 'high',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true, description: 'd' } },
      verbosity: 'low',
    });
  });

  it('maps json_object to JSON mode and leaves plain text as the default', () => {
    expect(toChatRequest(req({ text: { format: { type: 'json_object' } } })).response_format).to.deep.equal({ type: 'json_object' });
    expect(toChatRequest(req({ text: { format: { type: 'text' } } }))).to.not.have.property('response_format');
  });

  it('keeps response-only fields out of the chat request and forwards unknown ones (provider extensions)', () => {
    const chat = toChatRequest(req({
      metadata: { team: 'a' },
      store: true,
      truncation: 'auto',
      include: ['reasoning.encrypted_content'],
      stream_options: { include_obfuscation: false },
      max_tool_calls: 3,
      top_logprobs: 0,
      previous_response_id: null,
      top_k: 40,
    }));
    expect(chat).to.deep.equal({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], top_k: 40 });
  });

  it('translates function tools, tool_choice and parallel_tool_calls', () => {
    const chat = toChatRequest(req({
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
        { type: 'function', name: 'get_time', parameters: null } as unknown as Tool,
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
    }));
    expect(chat.tools).to.deep.equal([
      { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true } },
      { type: 'function', function: { name: 'get_time' } },
    ]);
    expect(chat.tool_choice).to.deep.equal({ type: 'function', function: { name: 'get_weather' } });
    expect(chat.parallel_tool_calls).to.equal(false);
    expect(toChatRequest(req({ tools: [{ type: 'function', name: 'f' }], tool_choice: 'required' })).tool_choice).to.equal('required');
  });

  it('drops tool_choice auto/none and parallel_tool_calls when there are no tools (chat rejects them)', () => {
    const chat = toChatRequest(req({ tools: [], tool_choice: 'auto', parallel_tool_calls: true }));
    expect(chat).to.deep.equal({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
    expect(toChatRequest(req({ tool_choice: 'none' }))).to.not.have.property('tool_choice');
  });

  it('turns message items with their roles and parts into chat messages', () => {
    expect(messages([
      { role: 'developer', content: 'Answer in French.' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Line one' }, { type: 'input_text', text: 'Line two' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Bonjour', annotations: [] }] },
      { type: '', role: 'system', content: 'Be kind.' },
    ])).to.deep.equal([
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: 'Line one\nLine two' },
      { role: 'assistant', content: 'Bonjour' },
      { role: 'system', content: 'Be kind.' },
    ]);
  });

  it('translates images (string or object URL), files and audio in user messages', () => {
    expect(messages([{
      role: 'user',
      content: [
        { type: 'input_text', text: 'What is this?' },
        { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
        { type: 'input_image', image_url: { url: 'data:image/png;base64,AAAA', detail: 'auto' } },
        { type: 'input_image', image_url: 'https://example.com/dog.png', detail: 'original' },
        { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
        { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
      ],
    }])).to.deep.equal([{
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'auto' } },
        { type: 'image_url', image_url: { url: 'https://example.com/dog.png', detail: 'high' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' } },
        { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
      ],
    }]);
  });

  it('round-trips function calls: consecutive calls join the assistant turn, outputs become tool messages', () => {
    expect(messages([
      { role: 'user', content: 'Weather and time in Paris?' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking both.' }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
      { type: 'function_call', id: 'fc_2', call_id: 'call_t', name: 'get_time', arguments: '{}', status: 'completed' },
      { type: 'function_call_output', call_id: 'call_w', output: '{"temp":18}' },
      { type: 'function_call_output', call_id: 'call_t', output: [{ type: 'input_text', text: '14:05' }] },
      { type: 'function_call', call_id: 'call_again', name: 'get_weather', arguments: '{"city":"Lyon"}' },
      { type: 'function_call_output', call_id: 'call_again', output: '{"temp":20}' },
    ], 'Use tools.')).to.deep.equal([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: 'Weather and time in Paris?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w', content: '{"temp":18}' },
      { role: 'tool', tool_call_id: 'call_t', content: '14:05' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_again', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } }] },
      { role: 'tool', tool_call_id: 'call_again', content: '{"temp":20}' },
    ]);
  });

  it('refuses what needs stored state, naming the field', () => {
    expect(refusal(req({ previous_response_id: 'resp_123' }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_parameter', 'previous_response_id']);
    expect(refusal(req({ conversation: 'conv_1' }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_parameter', 'conversation']);
    expect(refusal(req({ conversation: { id: 'conv_1' } }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_parameter', 'conversation']);
    expect(refusal(req({ prompt: { id: 'pmpt_1' } }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_parameter', 'prompt']);
    expect(refusal(req({ background: true }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_parameter', 'background']);
    expect(refusal(req({ input: [{ type: 'item_reference', id: 'msg_1' }] }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'input[0].type']);
  });

  it('refuses hosted tools and tool choices chat providers cannot run', () => {
    expect(refusal(req({ tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'tools[1].type']);
    expect(refusal(req({ tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'file_search' } }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'tool_choice']);
    expect(refusal(req({ tool_choice: 'required' }))).to.deep.equal([400, 'invalid_request_error', null, 'tool_choice']);
    expect(refusal(req({ tools: [{ type: 'function' } as Tool] }))).to.deep.equal([400, 'invalid_request_error', null, 'tools[0].name']);
  });

  it('refuses input chat cannot carry, naming the exact part', () => {
    expect(refusal(req({ input: [{ type: 'computer_call_output', call_id: 'c' }] }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'input[0].type']);
    expect(refusal(req({ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'input[0].content[0].file_id']);
    expect(refusal(req({ input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://x/a.pdf' }] }] }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'input[0].content[0].file_url']);
    expect(refusal(req({ input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/a.png' }] }] }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'input[0].content[0].type']);
    expect(refusal(req({ input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'https://x/a.png' }] }] }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'input[0].output[0].type']);
    expect(refusal(req({ input: [{ type: 'function_call', call_id: 'c', name: 'f' }] }))).to.deep.equal([400, 'invalid_request_error', null, 'input[0].arguments']);
    expect(refusal(req({ input: [{ role: 'tool' as 'user', content: 'x' }] }))).to.deep.equal([400, 'invalid_request_error', null, 'input[0].role']);
    expect(refusal(req({ input: [] }))).to.deep.equal([400, 'invalid_request_error', null, 'input']);
  });

  it('refuses output formats and settings it cannot translate back', () => {
    expect(refusal(req({ text: { format: { type: 'grammar' } } }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_value', 'text.format.type']);
    expect(refusal(req({ text: { format: { type: 'json_schema' } } }))).to.deep.equal([400, 'invalid_request_error', null, 'text.format.name']);
    expect(refusal(req({ top_logprobs: 5 }))).to.deep.equal([400, 'invalid_request_error', 'unsupported_parameter', 'top_logprobs']);
    expect(refusal(req({ reasoning: { effort: 'extreme' } }))).to.deep.equal([400, 'invalid_request_error', null, 'reasoning.effort']);
  });
});
