// The Anthropic path end to end: the official openai SDK → Sluice → a strict local mock of
// Anthropic's Messages API serving recorded payloads. The mock refuses what Anthropic refuses,
// so every accepted call here is one the real API would accept too.
import { sdkError } from '../../test/helpers/errors.js';
import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ChatCompletionChunk, ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import { ANTHROPIC_KEY, AnthropicMock, answers } from '../../test/helpers/mock-anthropic.js';
import { readSseData } from '../../test/helpers/sse.js';
import { startTestGateway, type TestGateway } from '../../test/helpers/start-gateway.js';

const MODEL = 'anthropic/claude-sonnet-4-20250514';
const UPSTREAM_MODEL = 'claude-sonnet-4-20250514';
const JSON_ONLY = 'Respond with a single valid JSON object and nothing else: no Markdown code fences, no text before or after it.';

const WEATHER_TOOL: ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};
const TIME_TOOL: ChatCompletionFunctionTool = { type: 'function', function: { name: 'get_time' } };
const WEATHER_SCHEMA = WEATHER_TOOL.function.parameters;

function anthropicEnv(mock: AnthropicMock, key = ANTHROPIC_KEY): Record<string, string> {
  return { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: mock.url };
}

/** The SDK error a call rejects with (the test fails if it resolves). */
/** The SDK's types have no reasoning_content; the gateway adds it as DeepSeek does. */
function reasoningOf(value: object): unknown {
  return (value as Record<string, unknown>)['reasoning_content'];
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function textOf(chunks: readonly ChatCompletionChunk[], field: 'content' | 'reasoning_content'): string {
  return chunks.map((c) => {
    const delta = c.choices[0]?.delta;
    const value = delta === undefined ? undefined : (delta as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : '';
  }).join('');
}

describe('provider-anthropic through the openai SDK @integration', () => {
  let mock: AnthropicMock;
  let gw: TestGateway;

  before(async () => {
    mock = await AnthropicMock.start();
    gw = await startTestGateway({ env: anthropicEnv(mock) });
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  describe('chat', () => {
    it('answers with the translated recorded message, under the upstream model name', async () => {
      const { data, response } = await gw.client()
        .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Say hello' }] })
        .withResponse();
      expect(data).to.deep.equal({
        id: 'msg_013LBDy1nvGiRgxiRAWseYRS',
        object: 'chat.completion',
        created: data.created,
        model: UPSTREAM_MODEL,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello World' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 14, completion_tokens: 5, total_tokens: 19, prompt_tokens_details: { cached_tokens: 0 } },
      });
      expect(Math.abs(data.created - Date.now() / 1000)).to.be.below(5);
      expect(response.headers.get('x-gateway-provider')).to.equal('anthropic');
      expect(response.headers.get('x-gateway-model')).to.equal(UPSTREAM_MODEL);
      const sent = mock.provider.last();
      expect([sent.method, sent.path]).to.deep.equal(['POST', '/v1/messages']);
      expect(sent.json).to.deep.equal({ model: UPSTREAM_MODEL, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }], max_tokens: 4096 });
    });

    it('sends its own credential and version, and never a client header', async () => {
      await gw.client().chat.completions.create(
        { model: MODEL, messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'X-Client-Secret': 'do-not-leak', 'anthropic-beta': 'client-chosen', 'x-api-key': 'client-key' } },
      );
      const headers = mock.provider.last().headers;
      expect(Object.keys(headers).sort()).to.deep.equal(['anthropic-version', 'connection', 'content-length', 'content-type', 'host', 'user-agent', 'x-api-key']);
      expect([headers['x-api-key'], headers['anthropic-version'], headers['content-type'], headers['user-agent']]).to.deep.equal([
        ANTHROPIC_KEY,
        '2023-06-01',
        'application/json',
        'sluice',
      ]);
    });

    it('moves system and developer messages to the top-level system, in order', async () => {
      await gw.client().chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: 'Answer in French.' },
          { role: 'user', content: 'Hi' },
          { role: 'user', content: [{ type: 'text', text: 'Still there?' }] },
        ],
      });
      expect(mock.lastBody()['system']).to.deep.equal([
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Answer in French.' },
      ]);
      // Two user messages in a row become one turn: Anthropic refuses consecutive roles.
      expect(mock.lastBody()['messages']).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: 'Hi' }, { type: 'text', text: 'Still there?' }] },
      ]);
    });

    it('maps stop, temperature, top_p and user, and leaves out what Anthropic has no field for', async () => {
      mock.answerWith(answers.message('recorded/anthropic/messages_with_params.json'));
      const res = await gw.client().chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Count to five' }],
        stop: ['3'],
        temperature: 0.5,
        top_p: 0.9,
        max_tokens: 50,
        user: 'user-42',
        presence_penalty: 0.5,
        seed: 7,
      });
      expect(res.choices[0]).to.deep.equal({ index: 0, message: { role: 'assistant', content: '1, 2, ' }, finish_reason: 'stop' });
      expect(mock.lastBody()).to.deep.equal({
        model: UPSTREAM_MODEL,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Count to five' }] }],
        max_tokens: 50,
        stop_sequences: ['3'],
        temperature: 0.5,
        top_p: 0.9,
        metadata: { user_id: 'user-42' },
      });
    });

    it('reports cache reads and writes as part of the prompt, reads as cached_tokens', async () => {
      mock.answerWith(answers.message('anthropic/message_cached.json'));
      const res = await gw.client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'When does the contract end?' }] });
      expect(res.choices[0]).to.deep.equal({ index: 0, message: { role: 'assistant', content: 'The contract ends on 31 March.' }, finish_reason: 'length' });
      expect(res.usage).to.deep.equal({ prompt_tokens: 2257, completion_tokens: 9, total_tokens: 2266, prompt_tokens_details: { cached_tokens: 2048 } });
    });

    it('sends images as base64 (data URL) and url (https) sources', async () => {
      mock.answerWith(answers.message('recorded/anthropic/messages_multimodal.json'));
      const res = await gw.client().chat.completions.create({
        model: MODEL,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Which colours are in these logos?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==' } },
              { type: 'image_url', image_url: { url: 'https://example.com/logo.png', detail: 'high' } },
            ],
          },
        ],
      });
      expect(res.choices[0]!.message.content).to.match(/^In this Google logo, I can see four main colors:/);
      expect(res.usage).to.deep.equal({ prompt_tokens: 159, completion_tokens: 100, total_tokens: 259, prompt_tokens_details: { cached_tokens: 0 } });
      expect(mock.lastBody()['messages']).to.deep.equal([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Which colours are in these logos?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg==' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/logo.png' } },
          ],
        },
      ]);
    });

    it('refuses an image type Anthropic cannot read before calling it', async () => {
      const err = await sdkError(
        gw.client().chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,Qk0=' } }] }],
        }),
      );
      expect([err.status, err.error]).to.deep.equal([
        400,
        {
          message: "image type 'image/bmp' is not supported by this provider (jpeg, png, gif, webp)",
          type: 'invalid_request_error',
          code: null,
          param: 'messages[0].content[0].image_url.url',
        },
      ]);
      expect(mock.provider.requests).to.have.length(0);
    });

    it('asks for JSON through the system prompt (json_object and json_schema)', async () => {
      mock.answerWith(answers.message('anthropic/message_json.json'), answers.message('anthropic/message_json.json'));
      const res = await gw.client().chat.completions.create({
        model: MODEL,
        messages: [{ role: 'system', content: 'You know geography.' }, { role: 'user', content: 'Paris?' }],
        response_format: { type: 'json_object' },
      });
      expect(JSON.parse(res.choices[0]!.message.content!)).to.deep.equal({ city: 'Paris', population_millions: 2.1 });
      expect(mock.lastBody()['system']).to.deep.equal([
        { type: 'text', text: 'You know geography.' },
        { type: 'text', text: JSON_ONLY },
      ]);

      const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
      await gw.client().chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Paris?' }],
        response_format: { type: 'json_schema', json_schema: { name: 'city', description: 'A city and its size', schema } },
      });
      expect(mock.lastBody()['system']).to.deep.equal([
        { type: 'text', text: `${JSON_ONLY}\nThe object must conform to the JSON Schema named "city" (A city and its size):\n${JSON.stringify(schema)}` },
      ]);
      expect(mock.lastBody()).to.not.have.property('response_format');
    });
  });

  describe('streams', () => {
    it('streams text and hides the usage chunk when the client did not ask for it', async () => {
      const chunks = await collect(await gw.client().chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
      expect(chunks.map((c) => [c.id, c.model, c.choices[0]?.delta, c.choices[0]?.finish_reason, c.usage])).to.deep.equal([
        ['msg_01SJmPi7XXP8qscFQiHPR9oy', UPSTREAM_MODEL, { role: 'assistant', content: '' }, null, undefined],
        ['msg_01SJmPi7XXP8qscFQiHPR9oy', UPSTREAM_MODEL, { content: 'Hello World' }, null, undefined],
        ['msg_01SJmPi7XXP8qscFQiHPR9oy', UPSTREAM_MODEL, {}, 'stop', undefined],
      ]);
      expect(mock.lastBody()).to.deep.equal({ model: UPSTREAM_MODEL, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], max_tokens: 4096, stream: true });
    });

    it('ends with the usage chunk when the client asks for it', async () => {
      const chunks = await collect(
        await gw.client().chat.completions.create({ model: MODEL, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(chunks).to.have.length(4);
      expect(chunks.slice(0, 3).map((c) => c.usage)).to.deep.equal([undefined, undefined, undefined]);
      expect([chunks[3]!.choices, chunks[3]!.usage]).to.deep.equal([[], { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 0 } }]);
      // stream_options is the gateway's business: Anthropic always streams usage, and refuses the field.
      expect(mock.lastBody()).to.not.have.property('stream_options');
    });

    it('ends an upstream error event with one error event and no [DONE]', async () => {
      mock.answerWith(answers.stream('anthropic/stream_error.txt', 20));
      const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'Tell a story' }] }) });
      expect(res.status).to.equal(200);
      const events = await readSseData(res);
      expect(events).to.have.length(3);
      expect(JSON.parse(events[1]!).choices).to.deep.equal([{ index: 0, delta: { content: 'Once upon' }, finish_reason: null }]);
      expect(JSON.parse(events[2]!)).to.deep.equal({ error: { message: 'Overloaded', type: 'provider_error', code: 'overloaded_error', param: null, provider: 'anthropic' } });
      expect(events).to.not.include('[DONE]');
    });

    it('lets the SDK see the mid-stream error after the text that came before it', async () => {
      mock.answerWith(answers.stream('anthropic/stream_error.txt', 20));
      const stream = await gw.client().chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'Tell a story' }] });
      let text = '';
      const err = await sdkError((async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })());
      expect([text, err.message, err.error]).to.deep.equal([
        'Once upon',
        'Overloaded',
        { message: 'Overloaded', type: 'provider_error', code: 'overloaded_error', param: null, provider: 'anthropic' },
      ]);
    });
  });

  describe('tools', () => {
    it('returns tool calls and sends the tool results back as tool_result blocks', async () => {
      mock.answerWith(answers.message('recorded/anthropic/messages_with_tools.json'), answers.message('recorded/anthropic/messages_multi_turn.json'));
      const client = gw.client();
      const ask: ChatCompletionMessageParam = { role: 'user', content: 'What is the weather in Paris?' };
      const first = await client.chat.completions.create({ model: MODEL, messages: [ask], tools: [WEATHER_TOOL], tool_choice: 'auto', parallel_tool_calls: false });
      const call = { id: 'toolu_01Dq95J3WcnLmvSvBpAuaXwi', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } };
      expect(first.choices[0]).to.deep.equal({
        index: 0,
        message: { role: 'assistant', content: "I'll check the current weather in Paris for you.", tool_calls: [call] },
        finish_reason: 'tool_calls',
      });
      expect(mock.lastBody()).to.deep.include({
        tools: [{ name: 'get_weather', description: 'Current weather for a city', input_schema: WEATHER_SCHEMA }],
        tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      });

      const second = await client.chat.completions.create({
        model: MODEL,
        tools: [WEATHER_TOOL],
        messages: [ask, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '18°C and sunny' }],
      });
      expect(second.choices[0]!.message.content).to.equal('16');
      expect(mock.lastBody()['messages']).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: "I'll check the current weather in Paris for you." },
            { type: 'tool_use', id: call.id, name: 'get_weather', input: { location: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '18°C and sunny' }] },
      ]);
    });

    it('streams parallel tool calls whose argument deltas the SDK reassembles', async () => {
      mock.answerWith(answers.stream('anthropic/stream_tool_use.txt'));
      const stream = gw.client().chat.completions.stream({
        model: MODEL,
        messages: [{ role: 'user', content: 'Weather and time in San Francisco?' }],
        tools: [WEATHER_TOOL, TIME_TOOL],
        stream_options: { include_usage: true },
      });
      const final = await stream.finalChatCompletion();
      const choice = final.choices[0]!;
      expect([choice.message.content, choice.finish_reason]).to.deep.equal(['Let me check both.', 'tool_calls']);
      expect(choice.message.tool_calls!.map((c) => (c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : []))).to.deep.equal([
        ['toolu_01Weather', 'get_weather', '{"location": "San Francisco, CA"}'],
        ['toolu_01Time', 'get_time', '{}'],
      ]);
      expect(final.usage).to.deep.equal({ prompt_tokens: 1696, completion_tokens: 89, total_tokens: 1785, prompt_tokens_details: { cached_tokens: 1024 } });
      expect(mock.lastBody()['tools']).to.deep.equal([
        { name: 'get_weather', description: 'Current weather for a city', input_schema: WEATHER_SCHEMA },
        { name: 'get_time', input_schema: { type: 'object', properties: {} } },
      ]);
    });

    it('puts parallel tool results into one user turn on a streamed follow-up', async () => {
      const calls = [
        { id: 'toolu_01Weather', type: 'function' as const, function: { name: 'get_weather', arguments: '{"location": "San Francisco, CA"}' } },
        { id: 'toolu_01Time', type: 'function' as const, function: { name: 'get_time', arguments: '' } },
      ];
      const chunks = await collect(
        await gw.client().chat.completions.create({
          model: MODEL,
          stream: true,
          tools: [WEATHER_TOOL, TIME_TOOL],
          messages: [
            { role: 'user', content: 'Weather and time in San Francisco?' },
            { role: 'assistant', content: null, tool_calls: calls },
            { role: 'tool', tool_call_id: 'toolu_01Weather', content: '14°C, fog' },
            { role: 'tool', tool_call_id: 'toolu_01Time', content: [{ type: 'text', text: '09:12' }] },
          ],
        }),
      );
      expect(textOf(chunks, 'content')).to.equal('Hello World');
      expect(mock.lastBody()['messages']).to.deep.equal([
        { role: 'user', content: [{ type: 'text', text: 'Weather and time in San Francisco?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_01Weather', name: 'get_weather', input: { location: 'San Francisco, CA' } },
            { type: 'tool_use', id: 'toolu_01Time', name: 'get_time', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_01Weather', content: '14°C, fog' },
            { type: 'tool_result', tool_use_id: 'toolu_01Time', content: [{ type: 'text', text: '09:12' }] },
          ],
        },
      ]);
    });

    it("passes on Anthropic's refusal of a tool result that answers no call", async () => {
      const err = await sdkError(
        gw.client().chat.completions.create({
          model: MODEL,
          messages: [
            { role: 'user', content: 'Weather?' },
            { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'toolu_A', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
            { role: 'tool', tool_call_id: 'toolu_B', content: 'rain' },
          ],
          tools: [WEATHER_TOOL],
        }),
      );
      expect([err.status, err.error]).to.deep.equal([
        400,
        {
          message:
            'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_A. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
          type: 'invalid_request_error',
          code: 'invalid_request_error',
          param: null,
          provider: 'anthropic',
        },
      ]);
    });
  });

  describe('reasoning', () => {
    it('turns reasoning_effort into a thinking budget and surfaces thinking as reasoning_content', async () => {
      mock.answerWith(answers.message('recorded/anthropic/messages_extended_thinking.json'));
      const res = await gw.client().chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'Solve x + 5 = 12' }],
        reasoning_effort: 'medium',
        max_tokens: 1000,
        temperature: 0.2,
      });
      const recorded = fixtureJson<{ content: Array<{ thinking?: string; text?: string }> }>('recorded/anthropic/messages_extended_thinking.json').content;
      const message = res.choices[0]!.message;
      expect([reasoningOf(message), message.content]).to.deep.equal([recorded[0]!.thinking, recorded[1]!.text]);
      expect(res.usage).to.deep.equal({ prompt_tokens: 53, completion_tokens: 211, total_tokens: 264, prompt_tokens_details: { cached_tokens: 0 } });
      // Thinking counts inside max_tokens, so the answer keeps its 1000; the temperature goes (Anthropic refuses it with thinking).
      expect(mock.lastBody()).to.deep.equal({
        model: UPSTREAM_MODEL,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Solve x + 5 = 12' }] }],
        max_tokens: 5096,
        thinking: { type: 'enabled', budget_tokens: 4096 },
      });
    });

    it('streams thinking deltas as reasoning_content before the answer', async () => {
      mock.answerWith(answers.stream('anthropic/stream_thinking.txt'));
      const chunks = await collect(
        await gw.client().chat.completions.create({ model: MODEL, stream: true, reasoning_effort: 'high', messages: [{ role: 'user', content: 'Solve x + 5 = 12' }] }),
      );
      expect([textOf(chunks, 'reasoning_content'), textOf(chunks, 'content'), chunks[chunks.length - 1]!.choices[0]!.finish_reason]).to.deep.equal([
        'x + 5 = 12, so x = 7.',
        'x = 7',
        'length',
      ]);
      expect(mock.lastBody()).to.deep.include({ max_tokens: 20480, thinking: { type: 'enabled', budget_tokens: 16384 }, stream: true });
    });

    it('sends no thinking for reasoning_effort none', async () => {
      await gw.client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'none', temperature: 0.2 });
      expect(mock.lastBody()).to.deep.include({ max_tokens: 4096, temperature: 0.2 });
      expect(mock.lastBody()).to.not.have.property('thinking');
    });
  });

  describe('errors', () => {
    it("keeps Anthropic's 400 with its message and provider: 'anthropic'", async () => {
      const err = await sdkError(gw.client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], temperature: 1.5 }));
      expect([err.status, err.error]).to.deep.equal([
        400,
        { message: 'temperature: Input should be less than or equal to 1', type: 'invalid_request_error', code: 'invalid_request_error', param: null, provider: 'anthropic' },
      ]);
    });

    it('turns 529 overloaded into a 502 provider_error', async () => {
      mock.answerWith(answers.error(529, 'overloaded_error', 'Overloaded'));
      const err = await sdkError(gw.client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }));
      expect([err.status, err.error]).to.deep.equal([502, { message: 'Overloaded', type: 'provider_error', code: 'overloaded_error', param: null, provider: 'anthropic' }]);
    });

    it("keeps Anthropic's 401 when the gateway's own key is wrong", async () => {
      const wrong = await startTestGateway({ env: anthropicEnv(mock, 'sk-ant-revoked') });
      try {
        const err = await sdkError(wrong.client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }));
        expect([err.status, err.error]).to.deep.equal([
          401,
          { message: 'invalid x-api-key', type: 'authentication_error', code: 'authentication_error', param: null, provider: 'anthropic' },
        ]);
      } finally {
        await wrong.close();
      }
    });

    it('answers embeddings with 501 unsupported_operation without calling Anthropic', async () => {
      const err = await sdkError(gw.client().embeddings.create({ model: MODEL, input: 'hello' }));
      expect([err.status, err.error]).to.deep.equal([
        501,
        { message: "provider 'anthropic' does not support embeddings", type: 'invalid_request_error', code: 'unsupported_operation', param: null },
      ]);
      expect(mock.provider.requests).to.have.length(0);
    });
  });

  it("lists Anthropic's models under the prefix, with display name and creation date", async () => {
    const models = await gw.client().models.list();
    // Other plugins (pricing, the catalog) add their own metadata keys; these are the provider's.
    const listed = models.data.filter((m) => m.id.startsWith('anthropic/')).map((m) => [m.id, m.object, m.created, m.owned_by, (m as unknown as { metadata: { display_name?: string } }).metadata.display_name]);
    expect(listed).to.deep.equal([
      ['anthropic/claude-3-5-haiku-20241022', 'model', 1729555200, 'anthropic', 'Claude Haiku 3.5'],
      ['anthropic/claude-3-7-sonnet-20250219', 'model', 1740355200, 'anthropic', 'Claude Sonnet 3.7'],
      ['anthropic/claude-opus-4-1-20250805', 'model', 1754352000, 'anthropic', 'Claude Opus 4.1'],
      ['anthropic/claude-opus-4-20250514', 'model', 1747872000, 'anthropic', 'Claude Opus 4'],
      ['anthropic/claude-sonnet-4-20250514', 'model', 1747872000, 'anthropic', 'Claude Sonnet 4'],
    ]);
  });
});

describe('provider-anthropic instances and options @integration', () => {
  let mock: AnthropicMock;

  before(async () => {
    mock = await AnthropicMock.start();
  });
  after(() => mock.close());
  beforeEach(() => mock.reset());

  it('serves several instances, each with its own options, and pages through the model list', async () => {
    mock.modelsPageCap = 2;
    const gw = await startTestGateway({
      env: { ...anthropicEnv(mock), ANTHROPIC_EU_API_KEY: ANTHROPIC_KEY },
      config: {
        providers: {
          anthropic: { default_max_tokens: 1000, anthropic_version: '2023-01-01' },
          'anthropic-eu': { type: 'anthropic', base_url: mock.url },
        },
      },
    });
    try {
      const ids = (await gw.client().models.list()).data.map((m) => m.id);
      expect(ids.filter((id) => id.endsWith('/claude-sonnet-4-20250514'))).to.deep.equal(['anthropic/claude-sonnet-4-20250514', 'anthropic-eu/claude-sonnet-4-20250514']);
      expect(ids.filter((id) => id.startsWith('anthropic/'))).to.have.length(5);
      expect(ids.filter((id) => id.startsWith('anthropic-eu/'))).to.have.length(5);
      // Three pages of two per instance, each asking for the next after the last id.
      const pages = mock.provider.requests.filter((r) => r.path === '/v1/models').map((r) => r.url);
      expect(pages.slice(0, 3).sort()).to.deep.equal(['/v1/models?limit=1000', '/v1/models?limit=1000', '/v1/models?limit=1000&after_id=claude-opus-4-20250514']);
      expect(pages).to.have.length(6);
      expect(pages).to.include('/v1/models?limit=1000&after_id=claude-3-7-sonnet-20250219');

      mock.reset();
      await gw.client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
      expect([mock.lastBody()['max_tokens'], mock.provider.last().headers['anthropic-version']]).to.deep.equal([1000, '2023-01-01']);
      const { response } = await gw.client().chat.completions.create({ model: 'anthropic-eu/claude-sonnet-4-20250514', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      expect([mock.lastBody()['max_tokens'], mock.provider.last().headers['anthropic-version'], response.headers.get('x-gateway-provider')]).to.deep.equal([
        4096,
        '2023-06-01',
        'anthropic-eu',
      ]);
    } finally {
      await gw.close();
    }
  });

  it("fits thinking and the default max_tokens under the model's max_output_tokens", async () => {
    const gw = await startTestGateway({
      env: anthropicEnv(mock),
      config: {
        plugins: [
          'auth',
          'validate',
          { name: 'router', options: { virtual_models: { 'claude-small': { target: 'anthropic/claude-3-5-haiku-20241022', metadata: { max_output_tokens: 2048 } } } } },
          'provider-anthropic',
        ],
      },
    });
    try {
      await gw.client().chat.completions.create({ model: 'claude-small', messages: [{ role: 'user', content: 'hi' }] });
      expect(mock.lastBody()).to.deep.include({ model: 'claude-3-5-haiku-20241022', max_tokens: 2048 });
      await gw.client().chat.completions.create({ model: 'claude-small', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'max' });
      expect(mock.lastBody()).to.deep.include({ max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } });
    } finally {
      await gw.close();
    }
  });

  it('stops the boot on an option it does not know', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-anthropic-'));
    let failure: unknown = null;
    try {
      await startTestGateway({ dataDir, env: anthropicEnv(mock), config: { providers: { anthropic: { default_max_token: 100 } } } });
    } catch (err) {
      failure = err;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Under mocha the core loads twice (tests as CJS, plugins as ESM), so gateway.ts's `instanceof
    // StartupError` misses and wraps it as SLUICE_ERR_PLUGIN_SETUP: the code is checked in options.test.ts.
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.match(/<inline config>: providers\.anthropic: must NOT have additional properties 'default_max_token'$/);
    expect(mock.provider.requests).to.have.length(0);
  });
});

describe('the Anthropic mock refuses what Anthropic refuses @integration', () => {
  let mock: AnthropicMock;
  before(async () => {
    mock = await AnthropicMock.start();
  });
  after(() => mock.close());

  const HEADERS = { 'x-api-key': ANTHROPIC_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };
  const HI = { role: 'user', content: 'hi' };
  const BASE = { model: UPSTREAM_MODEL, max_tokens: 100 };
  const TOOL_USE = { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: {} };

  async function post(body: Record<string, unknown>, headers: Record<string, string> = HEADERS): Promise<[number, unknown]> {
    const res = await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(body) });
    return [res.status, await res.json()];
  }

  function refusal(status: number, type: string, message: string): [number, unknown] {
    return [status, { type: 'error', error: { type, message }, request_id: 'req_011CMockRequest' }];
  }

  const cases: Array<[string, Record<string, unknown>, Record<string, string>, [number, unknown]]> = [
    [
      'a system role inside messages',
      { ...BASE, messages: [{ role: 'system', content: 'Be brief.' }, HI] },
      HEADERS,
      refusal(400, 'invalid_request_error', 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.'),
    ],
    ['a missing max_tokens', { model: UPSTREAM_MODEL, messages: [HI] }, HEADERS, refusal(400, 'invalid_request_error', 'max_tokens: Field required')],
    [
      'a first message that is not the user’s',
      { ...BASE, messages: [{ role: 'assistant', content: 'Hello' }, HI] },
      HEADERS,
      refusal(400, 'invalid_request_error', 'messages: first message must use the "user" role'),
    ],
    [
      'two user turns in a row',
      { ...BASE, messages: [HI, HI] },
      HEADERS,
      refusal(400, 'invalid_request_error', 'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row'),
    ],
    ['a missing x-api-key', { ...BASE, messages: [HI] }, { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, refusal(401, 'authentication_error', 'x-api-key header is required')],
    ['a wrong x-api-key', { ...BASE, messages: [HI] }, { ...HEADERS, 'x-api-key': 'sk-other' }, refusal(401, 'authentication_error', 'invalid x-api-key')],
    ['a missing anthropic-version', { ...BASE, messages: [HI] }, { 'x-api-key': ANTHROPIC_KEY, 'content-type': 'application/json' }, refusal(400, 'invalid_request_error', 'anthropic-version: header is required')],
    [
      'an unknown anthropic-version',
      { ...BASE, messages: [HI] },
      { ...HEADERS, 'anthropic-version': '2024-01-01' },
      refusal(400, 'invalid_request_error', "anthropic-version: invalid version '2024-01-01'. See https://docs.anthropic.com/en/api/versioning"),
    ],
    [
      'a temperature together with thinking',
      { ...BASE, max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, temperature: 0.2, messages: [HI] },
      HEADERS,
      refusal(
        400,
        'invalid_request_error',
        '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility',
      ),
    ],
    [
      'an empty text block',
      { ...BASE, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] },
      HEADERS,
      refusal(400, 'invalid_request_error', 'messages: text content blocks must be non-empty'),
    ],
    [
      'an empty system text block',
      { ...BASE, system: [{ type: 'text', text: '' }], messages: [HI] },
      HEADERS,
      refusal(400, 'invalid_request_error', 'system: text content blocks must be non-empty'),
    ],
    [
      'a tool_result that answers no tool_use of the previous assistant turn',
      {
        ...BASE,
        messages: [HI, { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_B', content: 'rain' }] }],
      },
      HEADERS,
      refusal(
        400,
        'invalid_request_error',
        'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_B. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      ),
    ],
    [
      'a field of OpenAI’s API',
      { ...BASE, messages: [HI], response_format: { type: 'json_object' } },
      HEADERS,
      refusal(400, 'invalid_request_error', 'response_format: Extra inputs are not permitted'),
    ],
  ];

  for (const [what, body, headers, expected] of cases) {
    it(`refuses ${what}`, async () => {
      expect(await post(body, headers)).to.deep.equal(expected);
    });
  }

  it('accepts a well-formed tool round trip', async () => {
    const [status] = await post({
      ...BASE,
      system: 'Be brief.',
      messages: [HI, { role: 'assistant', content: [TOOL_USE] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_A', content: 'rain' }, { type: 'text', text: 'So?' }] }],
    });
    expect(status).to.equal(200);
  });
});
