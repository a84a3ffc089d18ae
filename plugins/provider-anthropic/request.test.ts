import { expect } from 'chai';
import { thrownGatewayError } from '../../test/helpers/errors.js';
import type { ChatMessage, ChatRequest, ContentPart } from '../../core/types/chat.js';
import { mapReasoningEffort, toAnthropicRequest } from './request.js';

const MODEL = 'claude-sonnet-4-20250514';
const OPTS = { defaultMaxTokens: 4096 };

function chat(messages: ChatMessage[], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'anthropic/claude-sonnet-4', messages, ...extra };
}

const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};

describe('provider-anthropic toAnthropicRequest', () => {
  it('translates a minimal request with the default max_tokens', () => {
    expect(toAnthropicRequest(chat([{ role: 'user', content: 'Hello' }]), MODEL, OPTS)).to.deep.equal({
      model: MODEL,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      max_tokens: 4096,
    });
  });

  it('moves system and developer messages, wherever they are, to system blocks in order', () => {
    const out = toAnthropicRequest(
      chat([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }, { type: 'text', text: 'No emoji.' }] },
        { role: 'assistant', content: 'Salut' },
        { role: 'system', content: 'Be kind.' },
        { role: 'user', content: 'Ça va ?' },
      ]),
      MODEL,
      OPTS,
    );
    expect(out.system).to.deep.equal([
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: 'Answer in French.' },
      { type: 'text', text: 'No emoji.' },
      { type: 'text', text: 'Be kind.' },
    ]);
    expect(out.messages).to.deep.equal([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Salut' }] },
      { role: 'user', content: [{ type: 'text', text: 'Ça va ?' }] },
    ]);
  });

  it('rejects non-text parts in a system message', () => {
    const err = thrownGatewayError(() =>
      toAnthropicRequest(chat([{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x.test/a.png' } }] }]), MODEL, OPTS),
    );
    expect(err.status).to.equal(400);
    expect(err.param).to.equal('messages[0].content[0]');
  });

  it('translates multi-part user content: text, data URL image, http image, PDF', () => {
    const out = toAnthropicRequest(
      chat([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What colours?' },
            { type: 'image_url', image_url: { url: 'data:image/PNG;base64,iVBORw0KGgo=', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://upload.example.org/logo.jpg' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'spec.pdf' } },
          ],
        },
      ]),
      MODEL,
      OPTS,
    );
    expect(out.messages).to.deep.equal([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What colours?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://upload.example.org/logo.jpg' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' }, title: 'spec.pdf' },
        ],
      },
    ]);
  });

  it('rejects images that are neither http(s) nor base64 data URLs, and unsupported image types', () => {
    const bad = thrownGatewayError(() =>
      toAnthropicRequest(chat([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }]), MODEL, OPTS),
    );
    expect([bad.status, bad.type, bad.param]).to.deep.equal([400, 'invalid_request_error', 'messages[0].content[0].image_url.url']);
    const tiff = thrownGatewayError(() =>
      toAnthropicRequest(chat([{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'image_url', image_url: { url: 'data:image/tiff;base64,AAAA' } }] }]), MODEL, OPTS),
    );
    expect([tiff.status, tiff.param]).to.deep.equal([400, 'messages[0].content[1].image_url.url']);
  });

  it('rejects audio input and files that are not inline PDFs', () => {
    const audio = thrownGatewayError(() =>
      toAnthropicRequest(chat([{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }]), MODEL, OPTS),
    );
    expect([audio.status, audio.param]).to.deep.equal([400, 'messages[0].content[0]']);
    const unknown = thrownGatewayError(() =>
      toAnthropicRequest(chat([{ role: 'user', content: [{ type: 'input_text', text: 'x' } as unknown as ContentPart] }]), MODEL, OPTS),
    );
    expect([unknown.status, unknown.param]).to.deep.equal([400, 'messages[0].content[0]']);
    const fileId = thrownGatewayError(() => toAnthropicRequest(chat([{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }]), MODEL, OPTS));
    expect([fileId.status, fileId.param]).to.deep.equal([400, 'messages[0].content[0].file']);
  });

  it('turns tool calls into tool_use blocks and merges tool results and a following user message into ONE user turn', () => {
    const out = toAnthropicRequest(
      chat([
        { role: 'user', content: 'Weather in Paris and the time?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
            { id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '18°C, cloudy' },
        { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '14:05' }] },
        { role: 'user', content: 'Thanks. Umbrella?' },
      ]),
      MODEL,
      OPTS,
    );
    expect(out.messages).to.deep.equal([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and the time?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C, cloudy' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '14:05' }] },
          { type: 'text', text: 'Thanks. Umbrella?' },
        ],
      },
    ]);
  });

  it('merges consecutive same-role messages and drops empty ones', () => {
    const out = toAnthropicRequest(
      chat([
        { role: 'user', content: 'one' },
        { role: 'user', content: [{ type: 'text', text: 'two' }] },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'three' },
        { role: 'assistant', content: 'a' },
        { role: 'assistant', content: null, tool_calls: [] },
        { role: 'assistant', content: 'b' },
      ]),
      MODEL,
      OPTS,
    );
    expect(out.messages).to.deep.equal([
      { role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }, { type: 'text', text: 'three' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
    ]);
  });

  it('drops reasoning_content of earlier assistant turns (Anthropic needs its signature)', () => {
    const out = toAnthropicRequest(
      chat([
        { role: 'user', content: 'x + 5 = 12?' },
        { role: 'assistant', content: 'x = 7', reasoning_content: 'subtract 5' },
        { role: 'user', content: 'and x + 6 = 12?' },
      ]),
      MODEL,
      OPTS,
    );
    expect(out.messages[1]).to.deep.equal({ role: 'assistant', content: [{ type: 'text', text: 'x = 7' }] });
  });

  it('rejects tool call arguments that are not a JSON object, naming the exact param', () => {
    const messages = (args: string): ChatMessage[] => [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'a', arguments: '{}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'b', arguments: args } },
        ],
      },
    ];
    const broken = thrownGatewayError(() => toAnthropicRequest(chat(messages('{"city": "Par')), MODEL, OPTS));
    expect([broken.status, broken.type, broken.param, broken.code]).to.deep.equal([
      400,
      'invalid_request_error',
      'messages[1].tool_calls[1].function.arguments',
      'invalid_tool_arguments',
    ]);
    const array = thrownGatewayError(() => toAnthropicRequest(chat(messages('[1,2]')), MODEL, OPTS));
    expect(array.param).to.equal('messages[1].tool_calls[1].function.arguments');
  });

  it('rejects tool messages without tool_call_id, the legacy function role and n > 1', () => {
    const noId = thrownGatewayError(() => toAnthropicRequest(chat([{ role: 'tool', content: 'x' }]), MODEL, OPTS));
    expect([noId.status, noId.param]).to.deep.equal([400, 'messages[0].tool_call_id']);
    const fn = thrownGatewayError(() => toAnthropicRequest(chat([{ role: 'function', name: 'f', content: 'x' }]), MODEL, OPTS));
    expect([fn.status, fn.param]).to.deep.equal([400, 'messages[0].role']);
    const n = thrownGatewayError(() => toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { n: 2 }), MODEL, OPTS));
    expect([n.status, n.param]).to.deep.equal([400, 'n']);
  });

  it('translates tools and every tool_choice form', () => {
    const base = chat([{ role: 'user', content: 'weather?' }], { tools: [WEATHER_TOOL, { type: 'function', function: { name: 'noop' } }] });
    const out = toAnthropicRequest({ ...base, tool_choice: 'auto' }, MODEL, OPTS);
    expect(out.tools).to.deep.equal([
      {
        name: 'get_weather',
        description: 'Current weather for a city',
        input_schema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      },
      { name: 'noop', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(out.tool_choice).to.deep.equal({ type: 'auto' });
    expect(toAnthropicRequest({ ...base, tool_choice: 'required' }, MODEL, OPTS).tool_choice).to.deep.equal({ type: 'any' });
    expect(toAnthropicRequest({ ...base, tool_choice: 'none' }, MODEL, OPTS).tool_choice).to.deep.equal({ type: 'none' });
    expect(
      toAnthropicRequest({ ...base, tool_choice: { type: 'function', function: { name: 'get_weather' } } }, MODEL, OPTS).tool_choice,
    ).to.deep.equal({ type: 'tool', name: 'get_weather' });
    expect(toAnthropicRequest(base, MODEL, OPTS)).to.not.have.property('tool_choice');
  });

  it('maps parallel_tool_calls: false to disable_parallel_tool_use', () => {
    const base = chat([{ role: 'user', content: 'weather?' }], { tools: [WEATHER_TOOL], parallel_tool_calls: false });
    expect(toAnthropicRequest(base, MODEL, OPTS).tool_choice).to.deep.equal({ type: 'auto', disable_parallel_tool_use: true });
    expect(toAnthropicRequest({ ...base, tool_choice: 'required' }, MODEL, OPTS).tool_choice).to.deep.equal({
      type: 'any',
      disable_parallel_tool_use: true,
    });
    expect(toAnthropicRequest({ ...base, tool_choice: 'none' }, MODEL, OPTS).tool_choice).to.deep.equal({ type: 'none' });
    expect(toAnthropicRequest({ ...base, parallel_tool_calls: true }, MODEL, OPTS)).to.not.have.property('tool_choice');
  });

  it('sends no tool_choice when there are no tools', () => {
    const out = toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { tool_choice: 'required', parallel_tool_calls: false }), MODEL, OPTS);
    expect(out).to.not.have.property('tool_choice');
    expect(out).to.not.have.property('tools');
  });

  it('asks for JSON through a system instruction appended after the system messages', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You extract data.' },
      { role: 'user', content: 'Alice is 30.' },
    ];
    const jsonOnly =
      'Respond with a single valid JSON object and nothing else: no Markdown code fences, no text before or after it.';
    expect(toAnthropicRequest(chat(messages, { response_format: { type: 'json_object' } }), MODEL, OPTS).system).to.deep.equal([
      { type: 'text', text: 'You extract data.' },
      { type: 'text', text: jsonOnly },
    ]);
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] };
    const out = toAnthropicRequest(
      chat(messages, { response_format: { type: 'json_schema', json_schema: { name: 'person', description: 'one person', schema, strict: true } } }),
      MODEL,
      OPTS,
    );
    expect(out.system).to.deep.equal([
      { type: 'text', text: 'You extract data.' },
      {
        type: 'text',
        text:
          `${jsonOnly}\nThe object must conform to the JSON Schema named "person" (one person):\n` +
          '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name","age"]}',
      },
    ]);
    expect(toAnthropicRequest(chat(messages, { response_format: { type: 'text' } }), MODEL, OPTS).system).to.have.length(1);
  });

  it('maps stop, max tokens, sampling, user and stream', () => {
    const out = toAnthropicRequest(
      chat([{ role: 'user', content: 'count' }], {
        stop: '3',
        max_tokens: 50,
        max_completion_tokens: 60,
        temperature: 0.2,
        top_p: 0.9,
        user: 'user-42',
        stream: true,
        stream_options: { include_usage: true },
        seed: 7,
        presence_penalty: 0.5,
      }),
      MODEL,
      OPTS,
    );
    expect(out).to.deep.equal({
      model: MODEL,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'count' }] }],
      max_tokens: 60,
      stop_sequences: ['3'],
      temperature: 0.2,
      top_p: 0.9,
      metadata: { user_id: 'user-42' },
      stream: true,
    });
    const other = toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { stop: ['a', 'b'], max_tokens: 50, max_completion_tokens: null, stream: false }), MODEL, OPTS);
    expect(other.stop_sequences).to.deep.equal(['a', 'b']);
    expect(other.max_tokens).to.equal(50);
    expect(other).to.not.have.property('stream');
    expect(toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { stop: null }), MODEL, OPTS)).to.not.have.property('stop_sequences');
  });
});

describe('provider-anthropic reasoning effort', () => {
  it('maps every level to its documented budget', () => {
    expect(
      (['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const).map((level) => mapReasoningEffort(level)),
    ).to.deep.equal([null, null, 1024, 4096, 16384, 32768, 65536]);
  });

  it('enables thinking, raises max_tokens above the budget and drops temperature', () => {
    const out = toAnthropicRequest(
      chat([{ role: 'user', content: 'x + 5 = 12' }], { reasoning_effort: 'medium', max_tokens: 1000, temperature: 0.3, top_p: 0.5 }),
      MODEL,
      OPTS,
    );
    expect(out).to.deep.equal({
      model: MODEL,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x + 5 = 12' }] }],
      max_tokens: 5096,
      thinking: { type: 'enabled', budget_tokens: 4096 },
    });
  });

  it('keeps a max_tokens already above the budget, and a top_p of at least 0.95', () => {
    const out = toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { reasoning_effort: 'low', max_tokens: 8000, top_p: 0.95 }), MODEL, OPTS);
    expect([out.max_tokens, out.thinking, out.top_p]).to.deep.equal([8000, { type: 'enabled', budget_tokens: 1024 }, 0.95]);
    const byDefault = toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { reasoning_effort: 'high' }), MODEL, OPTS);
    expect([byDefault.max_tokens, byDefault.thinking]).to.deep.equal([16384 + 4096, { type: 'enabled', budget_tokens: 16384 }]);
  });

  it('sends no thinking for none and minimal, and keeps temperature then', () => {
    for (const level of ['none', 'minimal'] as const) {
      const out = toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { reasoning_effort: level, temperature: 0.4 }), MODEL, OPTS);
      expect(out).to.not.have.property('thinking');
      expect([out.max_tokens, out.temperature]).to.deep.equal([4096, 0.4]);
    }
  });

  it('fits the budget under the model output ceiling when known', () => {
    const out = toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { reasoning_effort: 'max' }), MODEL, { defaultMaxTokens: 4096, maxOutputTokens: 64000 });
    expect([out.max_tokens, out.thinking]).to.deep.equal([64000, { type: 'enabled', budget_tokens: 59904 }]);
    const small = toAnthropicRequest(
      chat([{ role: 'user', content: 'x' }], { reasoning_effort: 'high', max_tokens: 30000 }),
      MODEL,
      { defaultMaxTokens: 4096, maxOutputTokens: 32000 },
    );
    expect([small.max_tokens, small.thinking]).to.deep.equal([30000, { type: 'enabled', budget_tokens: 16384 }]);
    const tiny = toAnthropicRequest(chat([{ role: 'user', content: 'x' }], { reasoning_effort: 'low', max_tokens: 500 }), MODEL, {
      defaultMaxTokens: 4096,
      maxOutputTokens: 1024,
    });
    expect([tiny.max_tokens, tiny.thinking]).to.deep.equal([500, undefined]);
  });

  it('leaves thinking off when the client forces a tool (Anthropic rejects the combination)', () => {
    const out = toAnthropicRequest(
      chat([{ role: 'user', content: 'weather?' }], { tools: [WEATHER_TOOL], tool_choice: 'required', reasoning_effort: 'high', temperature: 0.1 }),
      MODEL,
      OPTS,
    );
    expect(out).to.not.have.property('thinking');
    expect([out.max_tokens, out.temperature, out.tool_choice]).to.deep.equal([4096, 0.1, { type: 'any' }]);
    const auto = toAnthropicRequest(chat([{ role: 'user', content: 'weather?' }], { tools: [WEATHER_TOOL], tool_choice: 'auto', reasoning_effort: 'low' }), MODEL, OPTS);
    expect(auto.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 1024 });
  });

  it('leaves thinking off while continuing a tool-calling turn (its signed thinking cannot be replayed)', () => {
    const loop: ChatMessage[] = [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
    ];
    const mid = toAnthropicRequest(chat(loop, { tools: [WEATHER_TOOL], reasoning_effort: 'high', temperature: 0.5 }), MODEL, OPTS);
    expect(mid).to.not.have.property('thinking');
    expect([mid.max_tokens, mid.temperature]).to.deep.equal([4096, 0.5]);
    const next = toAnthropicRequest(
      chat([...loop, { role: 'assistant', content: 'It is 18°C.' }, { role: 'user', content: 'And tomorrow?' }], { tools: [WEATHER_TOOL], reasoning_effort: 'high' }),
      MODEL,
      OPTS,
    );
    expect(next.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 16384 });
  });
});
