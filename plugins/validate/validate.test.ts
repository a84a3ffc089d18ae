import { expect } from 'chai';
import type { GatewayError } from '../../core/errors.js';
import { compileValidators, toBadRequest } from './index.js';

const validators = compileValidators();

/** The 400 a body gets for `operation`, as `{param, message}`, or null when it passes. */
function check(operation: string, body: unknown): { param: string | null; message: string } | null {
  const validate = validators.get(operation)!;
  if (validate(body)) return null;
  const err = toBadRequest(validate.errors!) as GatewayError;
  expect(err.status).to.equal(400);
  expect(err.type).to.equal('invalid_request_error');
  expect(err.code).to.equal(null);
  return { param: err.param, message: err.message };
}

const user = (content: unknown) => ({ role: 'user', content });
const chat = (extra: Record<string, unknown>) => ({ model: 'openai/gpt-4o-mini', messages: [user('hi')], ...extra });

describe('validate: request bodies', () => {
  it('compiles once per process', () => {
    expect(compileValidators()).to.equal(validators);
  });

  describe('chat', () => {
    it('accepts a full, valid request and unknown fields', () => {
      expect(check('chat', chat({
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.2,
        max_tokens: null,
        stop: ['a', 'b'],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        response_format: { type: 'json_schema', json_schema: { name: 'out', schema: {} } },
        reasoning_effort: 'low',
        some_new_provider_field: { anything: true },
        messages: [
          { role: 'system', content: 'be brief' },
          user([{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } }]),
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        ],
      }))).to.equal(null);
    });

    const cases: Array<[string, unknown, string, string]> = [
      ['missing model', { messages: [user('hi')] }, 'model', "'model' is required"],
      ['empty model', chat({ model: '' }), 'model', "'model' must NOT have fewer than 1 characters"],
      ['missing messages', { model: 'm' }, 'messages', "'messages' is required"],
      ['empty messages', chat({ messages: [] }), 'messages', "'messages' must NOT have fewer than 1 items"],
      ['a number as content', chat({ messages: [user(42)] }), 'messages[0].content', "'messages[0].content' has an invalid type or shape"],
      ['a bad text part, deep inside', chat({ messages: [user('a'), user([{ type: 'text', text: 5 }])] }), 'messages[1].content[0].text', "'messages[1].content[0].text' must be string"],
      ['an image part without a url', chat({ messages: [user([{ type: 'image_url', image_url: {} }])] }), 'messages[0].content[0].image_url.url', "'messages[0].content[0].image_url.url' is required"],
      ['a part without type', chat({ messages: [user([{ text: 'x' }])] }), 'messages[0].content[0].type', "'messages[0].content[0].type' is required"],
      ['a missing role', chat({ messages: [{ content: 'x' }] }), 'messages[0].role', "'messages[0].role' is required"],
      ['an unknown role', chat({ messages: [{ role: 'robot', content: 'x' }] }), 'messages[0].role', `'messages[0].role' must be one of "system", "developer", "user", "assistant", "tool", "function"`],
      ['a tool message without tool_call_id', chat({ messages: [user('x'), { role: 'tool', content: 'r' }] }), 'messages[1].tool_call_id', "'messages[1].tool_call_id' is required"],
      ['tool call arguments that are an object', chat({ messages: [{ role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'f', arguments: {} } }] }] }), 'messages[0].tool_calls[0].function.arguments', "'messages[0].tool_calls[0].function.arguments' must be string"],
      ['temperature above 2', chat({ temperature: 5 }), 'temperature', "'temperature' must be <= 2"],
      ['temperature as a string', chat({ temperature: '0.5' }), 'temperature', "'temperature' must be number"],
      ['top_p above 1', chat({ top_p: 1.5 }), 'top_p', "'top_p' must be <= 1"],
      ['n of zero', chat({ n: 0 }), 'n', "'n' must be >= 1"],
      ['a fractional max_tokens', chat({ max_tokens: 1.5 }), 'max_tokens', "'max_tokens' has an invalid type or shape"],
      ['stream as a string', chat({ stream: 'yes' }), 'stream', "'stream' must be boolean"],
      ['include_usage as a string', chat({ stream_options: { include_usage: 'true' } }), 'stream_options.include_usage', "'stream_options.include_usage' must be boolean"],
      ['five stop sequences', chat({ stop: ['a', 'b', 'c', 'd', 'e'] }), 'stop', "'stop' has an invalid type or shape"],
      ['a tool without a function name', chat({ tools: [{ type: 'function', function: {} }] }), 'tools[0].function.name', "'tools[0].function.name' is required"],
      ['a tool of another type', chat({ tools: [{ type: 'retrieval', function: { name: 'f' } }] }), 'tools[0].type', `'tools[0].type' must be "function"`],
      ['an unknown tool_choice', chat({ tool_choice: 'always' }), 'tool_choice', "'tool_choice' has an invalid type or shape"],
      ['an unknown response_format type', chat({ response_format: { type: 'yaml' } }), 'response_format.type', `'response_format.type' must be one of "text", "json_object", "json_schema"`],
      ['json_schema without its schema object', chat({ response_format: { type: 'json_schema' } }), 'response_format.json_schema', "'response_format.json_schema' is required"],
      ['an unknown reasoning_effort', chat({ reasoning_effort: 'extreme' }), 'reasoning_effort', `'reasoning_effort' must be one of "none", "minimal", "low", "medium", "high", "xhigh", "max"`],
      ['a body that is not an object', [], '', 'request body must be object'],
    ];
    for (const [what, body, param, message] of cases) {
      it(`${what}: ${param || '(body)'}`, () => {
        expect(check('chat', body)).to.deep.equal({ param: param === '' ? null : param, message });
      });
    }
  });

  describe('embeddings', () => {
    it('accepts a string, strings, tokens and token lists', () => {
      for (const input of ['a', ['a', 'b'], [1, 2], [[1], [2, 3]]]) expect(check('embeddings', { model: 'm', input }), JSON.stringify(input)).to.equal(null);
    });

    const cases: Array<[string, unknown, string, string]> = [
      ['missing input', { model: 'm' }, 'input', "'input' is required"],
      ['an empty list', { model: 'm', input: [] }, 'input', "'input' has an invalid type or shape"],
      ['a number in a list of strings', { model: 'm', input: ['a', 3] }, 'input[1]', "'input[1]' must be string"],
      ['an unknown encoding_format', { model: 'm', input: 'a', encoding_format: 'hex' }, 'encoding_format', `'encoding_format' must be one of "float", "base64"`],
      ['dimensions of zero', { model: 'm', input: 'a', dimensions: 0 }, 'dimensions', "'dimensions' must be >= 1"],
    ];
    for (const [what, body, param, message] of cases) {
      it(`${what}: ${param}`, () => {
        expect(check('embeddings', body)).to.deep.equal({ param, message });
      });
    }
  });

  describe('responses and compact', () => {
    it('accepts string and item inputs', () => {
      expect(check('responses', { model: 'm', input: 'hi' })).to.equal(null);
      expect(check('responses', { model: 'm', input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] })).to.equal(null);
      expect(check('compact', { model: 'm', input: 'long history' })).to.equal(null);
    });

    const cases: Array<[string, string, unknown, string, string]> = [
      ['responses', 'an unknown input role', { model: 'm', input: [{ role: 'robot', content: 'x' }] }, 'input[0].role', `'input[0].role' must be one of "system", "developer", "user", "assistant"`],
      ['responses', 'a negative max_output_tokens', { model: 'm', input: 'x', max_output_tokens: 0 }, 'max_output_tokens', "'max_output_tokens' has an invalid type or shape"],
      ['responses', 'metadata values that are not strings', { model: 'm', metadata: { a: 1 } }, 'metadata.a', "'metadata.a' must be string"],
      ['responses', 'an unknown reasoning effort', { model: 'm', reasoning: { effort: 'huge' } }, 'reasoning.effort', `'reasoning.effort' must be one of "none", "minimal", "low", "medium", "high", "xhigh", "max"`],
      ['compact', 'missing model', { input: 'x' }, 'model', "'model' is required"],
      ['compact', 'a conversation without id', { model: 'm', conversation: {} }, 'conversation.id', "'conversation.id' is required"],
    ];
    for (const [operation, what, body, param, message] of cases) {
      it(`${operation}: ${what}: ${param}`, () => {
        expect(check(operation, body)).to.deep.equal({ param, message });
      });
    }
  });
});
