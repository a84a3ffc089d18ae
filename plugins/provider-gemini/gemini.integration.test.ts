// The Gemini path end to end: the official openai SDK → Sluice (default plugins plus a probe
// of what the log stage sees) → a strict local mock of Gemini's native API.
import { sdkError } from '../../test/helpers/errors.js';
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import type OpenAI from 'openai';
import { GEMINI_KEY, GeminiMock, mockVector, nativeJson, nativeText } from '../../test/helpers/mock-gemini.js';
import type { RecordedRequest } from '../../test/helpers/mock-provider.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway, type TestGateway } from '../../test/helpers/start-gateway.js';
import type { ProbedCall } from './test-usage-probe.js';

type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type Message = OpenAI.Chat.ChatCompletionMessageParam;

const PROBE = fileURLToPath(new URL('./test-usage-probe.ts', import.meta.url));

const THOUGHT_TEXT = "**Comparing decimal values**\n\nI'm lining the two numbers up by place value. Both share the whole part 9, so the tenths digit decides: 9.9 has 9 tenths while 9.11 has only 1 tenth.\n\n";
const ANSWER_TEXT = '9.9 is larger. Both numbers have 9 as the whole part, and in the tenths place 9.9 has a 9 while 9.11 has a 1, so 9.9 > 9.11.';
const SIGNATURE = 'CpwCAdHtim9Xq3Lb0sJ8u2c1JrYH5k0tq0Zb7lq1mHc2w4rVqg==';
const STREAM_SIGNATURE = 'EqQBCqEBAdHtim8Wl7bY2c+9dUu0Zz3YvYk2sBZp';

const WEATHER_TOOL: OpenAI.Chat.ChatCompletionFunctionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
};

/** The stored thinking fixture's usage, as the client sees it. */
const THINKING_USAGE = {
  prompt_tokens: 1289,
  completion_tokens: 252,
  total_tokens: 1541,
  prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 211, audio_tokens: 0 },
};

interface StreamedCall { id: string; name: string; arguments: string; extra_content?: unknown }

interface Collected {
  content: string;
  reasoning: string;
  calls: StreamedCall[];
  finish: string | null;
  usages: unknown[];
  ids: Set<string>;
  models: Set<string>;
}

async function collect(stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>): Promise<Collected> {
  const out: Collected = { content: '', reasoning: '', calls: [], finish: null, usages: [], ids: new Set(), models: new Set() };
  for await (const chunk of stream) {
    out.ids.add(chunk.id);
    out.models.add(chunk.model);
    if (chunk.usage) out.usages.push(chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta as OpenAI.Chat.ChatCompletionChunk.Choice.Delta & { reasoning_content?: string };
    out.content += delta.content ?? '';
    out.reasoning += delta.reasoning_content ?? '';
    for (const call of delta.tool_calls ?? []) {
      const extra = (call as { extra_content?: unknown }).extra_content;
      const known = out.calls[call.index];
      if (known === undefined) {
        out.calls[call.index] = { id: call.id ?? '', name: call.function?.name ?? '', arguments: call.function?.arguments ?? '', ...(extra === undefined ? {} : { extra_content: extra }) };
      } else known.arguments += call.function?.arguments ?? '';
    }
    if (choice.finish_reason) out.finish = choice.finish_reason;
  }
  return out;
}

describe('Gemini provider through the openai SDK @integration', () => {
  let mock: GeminiMock;
  let gw: TestGateway;
  let client: OpenAI;
  let discovery: RecordedRequest[];

  async function probed(): Promise<ProbedCall[]> {
    return (await (await gw.fetch('/test/usage-probe')).json()) as ProbedCall[];
  }

  before(async () => {
    mock = await GeminiMock.start();
    // The shipped plugin list (provider-gemini comes from config/defaults.yaml) plus the probe.
    gw = await startTestGateway({ env: { GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: mock.url }, config: { plugins: [...defaultPlugins(), { path: PROBE }] } });
    client = gw.client();
    await client.models.list();
    discovery = mock.requests.slice();
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });
  beforeEach(async () => {
    mock.reset();
    await probed();
  });

  describe('models', () => {
    it('lists the chat and embedding models of every page under the gemini prefix, and demo is off', async () => {
      const models = await client.models.list();
      expect(models.data.map((m) => m.id)).to.deep.equal([
        'gemini/gemini-2.0-flash', 'gemini/gemini-2.5-flash', 'gemini/gemini-2.5-pro', 'gemini/gemini-3-flash-preview', 'gemini/gemini-embedding-001',
      ]);
      const flash = (await client.models.retrieve('gemini/gemini-2.5-flash')) as OpenAI.Models.Model & { metadata: Record<string, unknown> };
      expect(flash.owned_by).to.equal('google');
      expect(flash.metadata).to.deep.include({ display_name: 'Gemini 2.5 Flash', context_window: 1048576, max_output_tokens: 65536, modes: ['chat'], capabilities: { reasoning: true } });
    });

    it('follows nextPageToken with the key in the header only', () => {
      expect(discovery.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
        'GET /v1beta/models?pageSize=1000',
        `GET /v1beta/models?pageSize=1000&pageToken=${encodeURIComponent('Ch1tb2RlbHMvaW1hZ2VuLTQuMC1nZW5lcmF0ZS0wMDE=')}`,
      ]);
      for (const r of discovery) expect(r.headers['x-goog-api-key']).to.equal(GEMINI_KEY);
    });
  });

  describe('chat', () => {
    it('answers with the text, the thoughts as reasoning_content and usage with cached and thought tokens', async () => {
      const { data, response } = await client.chat.completions.create({
        model: 'gemini/gemini-2.5-flash',
        messages: [{ role: 'system', content: 'Answer briefly.' }, { role: 'user', content: 'Which is larger, 9.11 or 9.9?' }],
        reasoning_effort: 'low',
      }).withResponse();
      const sent = mock.lastCall();
      expect(sent.url).to.equal('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(sent.json).to.deep.equal({
        contents: [{ role: 'user', parts: [{ text: 'Which is larger, 9.11 or 9.9?' }] }],
        systemInstruction: { parts: [{ text: 'Answer briefly.' }] },
        generationConfig: { thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } },
      });
      expect(data).to.deep.equal({
        id: 'lE0qaPq1DMCaz7IPzOm4gAk',
        object: 'chat.completion',
        created: data.created,
        model: 'gemini/gemini-2.5-flash',
        choices: [{ index: 0, message: { role: 'assistant', content: ANSWER_TEXT, reasoning_content: THOUGHT_TEXT }, finish_reason: 'stop' }],
        usage: THINKING_USAGE,
      });
      expect(Math.abs(data.created - Date.now() / 1000)).to.be.below(60);
      expect(response.headers.get('x-gateway-provider')).to.equal('gemini');
      expect(response.headers.get('x-gateway-model')).to.equal('gemini-2.5-flash');
      const [call] = await probed();
      expect(call!.usage).to.deep.equal({
        input_tokens: 1289, output_tokens: 252, total_tokens: 1541, cached_input_tokens: 1024, cache_write_tokens: 0,
        reasoning_tokens: 211, audio_input_tokens: 0, audio_output_tokens: 0,
        raw: (nativeJson('generate-content-thinking.json') as { usageMetadata: unknown }).usageMetadata,
      });
    });

    it('sends system and developer messages, images, tool calls and tool results exactly as Gemini expects', async () => {
      mock.answerNext({ json: nativeJson('generate-content-tools.json') });
      const request = { ...(nativeJson('openai-request-tools.json') as ChatParams), model: 'gemini/gemini-3-flash-preview' };
      const res = await client.chat.completions.create(request);
      expect(mock.lastCall().json).to.deep.equal(nativeJson('gemini-request-tools.json'));
      expect(res.choices).to.deep.equal([{
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Tokyo","unit":"celsius"}' }, extra_content: { google: { thought_signature: SIGNATURE } } },
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' } },
          ],
        },
        finish_reason: 'tool_calls',
      }]);
      expect(res.usage).to.deep.equal({
        prompt_tokens: 96, completion_tokens: 160, total_tokens: 256,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 118, audio_tokens: 0 },
      });
    });

    it('round-trips tool calls: the calls, their thought signature and the results go back', async () => {
      const question: Message = { role: 'user', content: 'Weather in Tokyo and Paris?' };
      mock.answerNext({ json: nativeJson('generate-content-tools.json') });
      const first = await client.chat.completions.create({ model: 'gemini/gemini-3-flash-preview', messages: [question], tools: [WEATHER_TOOL] });
      const assistant = first.choices[0]!.message;
      const results: Message[] = [
        { role: 'tool', tool_call_id: 'call_0', content: '{"temperature":22}' },
        { role: 'tool', tool_call_id: 'call_1', content: 'Light rain' },
      ];
      const second = await client.chat.completions.create({ model: 'gemini/gemini-3-flash-preview', messages: [question, assistant, ...results], tools: [WEATHER_TOOL] });
      expect(second.choices[0]!.message.content).to.equal(ANSWER_TEXT);
      expect((mock.lastCall().json as { contents: unknown }).contents).to.deep.equal([
        { role: 'user', parts: [{ text: 'Weather in Tokyo and Paris?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { location: 'Tokyo', unit: 'celsius' } }, thoughtSignature: SIGNATURE },
            { functionCall: { name: 'get_weather', args: { location: 'Paris', unit: 'celsius' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { result: { temperature: 22 } } } },
            { functionResponse: { name: 'get_weather', response: { result: 'Light rain' } } },
          ],
        },
      ]);

      // A client that drops the signature gets Gemini 3's own refusal, with its status kept.
      const bare: Message = {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Tokyo","unit":"celsius"}' } },
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' } },
        ],
      };
      const err = await sdkError(client.chat.completions.create({ model: 'gemini/gemini-3-flash-preview', messages: [question, bare, ...results], tools: [WEATHER_TOOL] }));
      expect(err.status).to.equal(400);
      expect(err.error).to.deep.include({ type: 'invalid_request_error', code: 'INVALID_ARGUMENT', param: null, provider: 'gemini' });
      expect(err.message).to.contain('Function call is missing a thought_signature');
    });

    it('passes response_format json_schema and the sampling options as generationConfig', async () => {
      const request = { ...(nativeJson('openai-request-structured.json') as ChatParams), model: 'gemini/gemini-2.5-flash' };
      await client.chat.completions.create(request);
      expect(mock.lastCall().json).to.deep.equal(nativeJson('gemini-request-structured.json'));
    });

    it('maps reasoning_effort to the thinking control of each model family', async () => {
      const cases: Array<[string, OpenAI.ReasoningEffort, unknown]> = [
        ['gemini-2.5-flash', 'high', { thinkingBudget: 24576, includeThoughts: true }],
        ['gemini-2.5-pro', 'none', { thinkingBudget: 128, includeThoughts: false }],
        ['gemini-3-flash-preview', 'minimal', { thinkingLevel: 'minimal', includeThoughts: true }],
        ['gemini-3-flash-preview', 'xhigh', { thinkingLevel: 'high', includeThoughts: true }],
      ];
      for (const [model, effort, thinkingConfig] of cases) {
        await client.chat.completions.create({ model: `gemini/${model}`, messages: [{ role: 'user', content: 'hi' }], reasoning_effort: effort });
        expect((mock.lastCall().json as { generationConfig: unknown }).generationConfig, `${model} ${String(effort)}`).to.deep.equal({ thinkingConfig });
      }
    });

    it('sends a data: URL image inline', async () => {
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
      await client.chat.completions.create({
        model: 'gemini/gemini-2.5-flash',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] }],
      });
      expect((mock.lastCall().json as { contents: unknown }).contents).to.deep.equal([
        { role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: png } }] },
      ]);
    });

    it('never forwards client headers, nor the gateway credential, and keeps the key out of the URL', async () => {
      await client.chat.completions.create(
        { model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { 'X-Client-Secret': 'do-not-leak', 'X-OpenWebUI-User-Email': 'a@b.c' } },
      );
      const sent = mock.lastCall();
      expect(Object.keys(sent.headers).sort()).to.deep.equal(['connection', 'content-length', 'content-type', 'host', 'user-agent', 'x-goog-api-key']);
      expect(sent.headers['x-goog-api-key']).to.equal(GEMINI_KEY);
      expect(sent.url).to.not.contain('key=');
    });

    it('refuses a model name that would change the upstream path, without calling Gemini', async () => {
      const err = await sdkError(client.chat.completions.create({ model: 'gemini/gemini-2.5-flash:streamGenerateContent?key=x', messages: [{ role: 'user', content: 'hi' }] }));
      expect(err.status).to.equal(404);
      expect(err.error).to.deep.include({ code: 'model_not_found' });
      expect(mock.requests).to.have.length(0);
    });

    it('answers 501 to compaction, which Gemini has no counterpart for', async () => {
      const res = await gw.fetch('/v1/responses/compact', { method: 'POST', body: JSON.stringify({ model: 'gemini/gemini-2.5-flash', input: 'long history' }) });
      expect(res.status).to.equal(501);
      expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('unsupported_operation');
    });
  });

  describe('streaming', () => {
    const HAIKU = 'Gentle autumn rain\ntaps the window, soft and slow—\nthe tea has gone cold.';
    const HAIKU_THOUGHT = '**Drafting the haiku**\n\nI want an autumn image in 5-7-5: rain on a window, then a small human detail to close it.\n\n';

    it('streams reasoning and text, records usage, and hides the usage chunk when not asked', async () => {
      const got = await collect(await client.chat.completions.create({ model: 'gemini/gemini-2.5-pro', stream: true, messages: [{ role: 'user', content: 'A haiku about autumn rain' }] }));
      expect(mock.lastCall().url).to.equal('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
      expect(got).to.deep.equal({
        content: HAIKU, reasoning: HAIKU_THOUGHT, calls: [], finish: 'stop', usages: [],
        ids: new Set(['Xm88aPW3DZqoz7IP9v2Z4AQ']), models: new Set(['gemini/gemini-2.5-pro']),
      });
      const [call] = await probed();
      expect(call!.usage).to.deep.include({ input_tokens: 14, output_tokens: 332, total_tokens: 346, reasoning_tokens: 313, cached_input_tokens: 0 });
      expect((call!.responseBody as OpenAI.Chat.ChatCompletion).choices[0]!.message).to.deep.equal({ role: 'assistant', content: HAIKU, reasoning_content: HAIKU_THOUGHT });
    });

    it('shows one usage chunk when the client asks for it', async () => {
      const got = await collect(await client.chat.completions.create({
        model: 'gemini/gemini-2.5-pro', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'A haiku' }],
      }));
      expect(got.usages).to.deep.equal([{
        prompt_tokens: 14, completion_tokens: 332, total_tokens: 346,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 313, audio_tokens: 0 },
      }]);
      expect(got.content).to.equal(HAIKU);
    });

    it('streams a tool call with its signature, and the signature goes back with the result', async () => {
      const question: Message = { role: 'user', content: 'Weather in Tokyo?' };
      mock.answerNext({ sse: nativeText('stream-tools.txt') });
      const got = await collect(await client.chat.completions.create({ model: 'gemini/gemini-3-flash-preview', stream: true, messages: [question], tools: [WEATHER_TOOL] }));
      expect(got.calls).to.deep.equal([{ id: 'call_0', name: 'get_weather', arguments: '{"location":"Tokyo"}', extra_content: { google: { thought_signature: STREAM_SIGNATURE } } }]);
      expect(got.finish).to.equal('tool_calls');
      expect(got.content).to.equal('');

      const call = got.calls[0]!;
      // The signature rides beside the OpenAI fields, as the stream handed it out.
      const echoed = { id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments }, extra_content: call.extra_content };
      const assistant: Message = { role: 'assistant', content: null, tool_calls: [echoed] };
      const next = await collect(await client.chat.completions.create({
        model: 'gemini/gemini-3-flash-preview', stream: true, tools: [WEATHER_TOOL],
        messages: [question, assistant, { role: 'tool', tool_call_id: 'call_0', content: '{"temperature":22}' }],
      }));
      expect(next.content).to.equal(HAIKU);
      expect((mock.lastCall().json as { contents: unknown[] }).contents.slice(1)).to.deep.equal([
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { location: 'Tokyo' } }, thoughtSignature: STREAM_SIGNATURE }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: { temperature: 22 } } } }] },
      ]);
    });

    it('stops the Gemini stream when the client goes away', async () => {
      mock.answerNext({ sse: nativeText('stream-thinking.txt'), gapMs: 300 });
      const stream = await client.chat.completions.create({ model: 'gemini/gemini-2.5-pro', stream: true, messages: [{ role: 'user', content: 'A haiku' }] });
      for await (const _chunk of stream) break;
      const deadline = Date.now() + 2000;
      while (mock.server.aborted === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(mock.server.aborted).to.equal(1);
    });

    it('relays an error met mid-stream as the last event, without [DONE], keeping the usage so far', async () => {
      mock.answerNext({ sse: nativeText('stream-error.txt') });
      const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'gemini/gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'planets' }] }) });
      expect(res.status).to.equal(200);
      const events = (await res.text()).split('\n\n').filter((e) => e !== '');
      expect(events).to.have.length(2);
      const first = JSON.parse(events[0]!.slice('data: '.length)) as OpenAI.Chat.ChatCompletionChunk;
      expect(first.choices).to.deep.equal([{ index: 0, delta: { role: 'assistant', content: 'The first three planets are' }, finish_reason: null }]);
      expect(JSON.parse(events[1]!.slice('data: '.length))).to.deep.equal({
        error: { message: 'The model is overloaded. Please try again later.', type: 'provider_error', code: 'UNAVAILABLE', param: null, provider: 'gemini' },
      });
      const [call] = await probed();
      expect(call!.usage).to.deep.include({ input_tokens: 9, output_tokens: 5, total_tokens: 14 });

      // The SDK surfaces it as an error after the text that came before.
      mock.answerNext({ sse: nativeText('stream-error.txt') });
      const stream = await client.chat.completions.create({ model: 'gemini/gemini-2.5-flash', stream: true, messages: [{ role: 'user', content: 'planets' }] });
      let text = '';
      const err = await sdkError((async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })());
      expect(text).to.equal('The first three planets are');
      expect(err.message).to.equal('The model is overloaded. Please try again later.');
    });
  });

  describe('embeddings', () => {
    const INPUTS = ['The quick brown fox jumps over the lazy dog.', 'A fast auburn fox leaps above a sleepy hound.'];

    it('returns floats, and books an estimated usage marked as such', async () => {
      const res = await client.embeddings.create({ model: 'gemini/gemini-embedding-001', input: INPUTS, dimensions: 8, encoding_format: 'float' });
      const sent = mock.lastCall();
      expect(sent.url).to.equal('/v1beta/models/gemini-embedding-001:batchEmbedContents');
      expect(sent.json).to.deep.equal(nativeJson('batch-embed-request.json'));
      expect(res).to.deep.equal({
        object: 'list',
        data: [
          { object: 'embedding', index: 0, embedding: [-0.0227, 0.0105, 0.0141, -0.0632, 0.0046, -0.0189, 0.0073, 0.0318] },
          { object: 'embedding', index: 1, embedding: [-0.0198, 0.0121, 0.0117, -0.0594, 0.0069, -0.0172, 0.0051, 0.0287] },
        ],
        model: 'gemini/gemini-embedding-001',
        // 44 and 45 UTF-8 bytes: 11 + 12 estimated tokens.
        usage: { prompt_tokens: 23, total_tokens: 23 },
      });
      const [call] = await probed();
      expect(call!.usage).to.deep.equal({
        input_tokens: 23, output_tokens: 0, total_tokens: 23, cached_input_tokens: 0, cache_write_tokens: 0,
        reasoning_tokens: 0, audio_input_tokens: 0, audio_output_tokens: 0,
        raw: { estimated: true, method: 'ceil(utf8_bytes / 4) per input' },
      });
    });

    it('answers base64 when the SDK asks for it by default', async () => {
      const res = await client.embeddings.create({ model: 'gemini/gemini-embedding-001', input: 'hello' });
      expect((mock.lastCall().json as { requests: unknown[] }).requests).to.deep.equal([{ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'hello' }] } }]);
      expect(res.data[0]!.embedding).to.deep.equal(mockVector('hello').map(Math.fround));
      expect(res.usage).to.deep.equal({ prompt_tokens: 2, total_tokens: 2 });
    });

    it('cuts more than 100 inputs into calls of at most 100 and keeps the order', async () => {
      const inputs = Array.from({ length: 150 }, (_, i) => `sentence number ${i}`);
      const res = await client.embeddings.create({ model: 'gemini/gemini-embedding-001', input: inputs, encoding_format: 'float' });
      expect(mock.requests.map((r) => (r.json as { requests: unknown[] }).requests.length)).to.deep.equal([100, 50]);
      expect(res.data.map((d) => d.index)).to.deep.equal(inputs.map((_, i) => i));
      expect(res.data.map((d) => d.embedding)).to.deep.equal(inputs.map((text) => mockVector(text)));
    });
  });

  describe('provider errors', () => {
    const ask = (): Promise<unknown> => client.chat.completions.create({ model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] });

    it('keeps a 400 INVALID_ARGUMENT as 400 with the provider named', async () => {
      mock.answerNext({ status: 400, json: nativeJson('error-400-argument.json') });
      const err = await sdkError(ask());
      expect(err.status).to.equal(400);
      expect(err.error).to.deep.equal({
        message: 'Unable to submit request because thinking_budget and thinking_level are not supported together.',
        type: 'invalid_request_error', code: 'INVALID_ARGUMENT', param: null, provider: 'gemini',
      });
    });

    it('answers a 429 RESOURCE_EXHAUSTED with 429 and the retry delay Gemini gave', async () => {
      mock.answerNext({ status: 429, json: nativeJson('error-429.json') });
      const err = await sdkError(ask());
      expect(err.status).to.equal(429);
      expect(err.headers?.get('retry-after')).to.equal('22');
      expect(err.error).to.deep.include({ type: 'rate_limit_error', code: 'RESOURCE_EXHAUSTED', provider: 'gemini' });
    });

    it('sends no retry-after when Gemini gave no delay, and takes a Retry-After header when there is one', async () => {
      const quota = { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } };
      mock.answerNext({ status: 429, json: quota });
      expect((await sdkError(ask())).headers?.get('retry-after')).to.equal(null);
      mock.answerNext({ status: 429, json: quota, headers: { 'retry-after': '7' } });
      expect((await sdkError(ask())).headers?.get('retry-after')).to.equal('7');
    });

    it('turns a Gemini 500 into a 502 provider_error', async () => {
      mock.answerNext({ status: 500, json: nativeJson('error-500.json') });
      const err = await sdkError(ask());
      expect(err.status).to.equal(502);
      expect(err.error).to.deep.equal({
        message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
        type: 'provider_error', code: 'INTERNAL', param: null, provider: 'gemini',
      });
    });

    it('reports a key Gemini refuses as an authentication failure of the provider', async () => {
      const wrong = await startTestGateway({ env: { GEMINI_API_KEY: 'not-the-key', GEMINI_BASE_URL: mock.url } });
      try {
        const err = await sdkError(wrong.client().chat.completions.create({ model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }));
        expect(err.status).to.equal(401);
        expect(err.error).to.deep.equal({ message: 'API key not valid. Please pass a valid API key.', type: 'authentication_error', code: 'INVALID_ARGUMENT', param: null, provider: 'gemini' });
      } finally {
        await wrong.close();
      }
    });
  });
});

describe('the strict Gemini mock @integration', () => {
  let mock: GeminiMock;
  const url = '/v1beta/models/gemini-2.5-flash:generateContent';
  const user = { role: 'user', parts: [{ text: 'hi' }] };

  before(async () => {
    mock = await GeminiMock.start();
  });
  after(() => mock.close());

  async function post(path: string, body: unknown, headers: Record<string, string> = { 'x-goog-api-key': GEMINI_KEY }): Promise<[number, unknown]> {
    const res = await fetch(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return [res.status, await res.json()];
  }

  it('rejects what Gemini rejects, in Google\'s error shape', async () => {
    const cases: Array<[string, string, unknown, Record<string, string> | undefined, number, string]> = [
      ['no key', url, { contents: [user] }, {}, 403, 'PERMISSION_DENIED'],
      ['a wrong key', url, { contents: [user] }, { 'x-goog-api-key': 'nope' }, 400, 'INVALID_ARGUMENT'],
      ['a key in the URL', `${url}?key=${GEMINI_KEY}`, { contents: [user] }, undefined, 400, 'INVALID_ARGUMENT'],
      ['a bearer token', url, { contents: [user] }, { 'x-goog-api-key': GEMINI_KEY, authorization: 'Bearer sk-gw' }, 401, 'UNAUTHENTICATED'],
      ['a system role', url, { contents: [{ role: 'system', parts: [{ text: 'be brief' }] }, user] }, undefined, 400, 'INVALID_ARGUMENT'],
      ['a system field in a content', url, { contents: [{ ...user, system: 'be brief' }] }, undefined, 400, 'INVALID_ARGUMENT'],
      ['empty parts', url, { contents: [{ role: 'user', parts: [] }] }, undefined, 400, 'INVALID_ARGUMENT'],
      ['a nameless functionResponse', url, {
        contents: [user, { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { response: { result: 1 } } }] }],
      }, undefined, 400, 'INVALID_ARGUMENT'],
      ['an unknown top-level field', url, { contents: [user], model: 'gemini-2.5-flash' }, undefined, 400, 'INVALID_ARGUMENT'],
      ['both thinking controls', url, { contents: [user], generationConfig: { thinkingConfig: { thinkingBudget: 1, thinkingLevel: 'low' } } }, undefined, 400, 'INVALID_ARGUMENT'],
      ['a stream without alt=sse', '/v1beta/models/gemini-2.5-flash:streamGenerateContent', { contents: [user] }, undefined, 400, 'INVALID_ARGUMENT'],
    ];
    for (const [what, path, body, headers, code, status] of cases) {
      const [got, answer] = await post(path, body, headers);
      expect(got, what).to.equal(code);
      expect((answer as { error: { code: number; status: string } }).error, what).to.deep.include({ code, status });
    }
    expect(mock.requests).to.have.length(cases.length);
  });

  it('answers a well-formed request', async () => {
    const [status, body] = await post(url, { contents: [user] });
    expect(status).to.equal(200);
    expect(body).to.deep.equal(nativeJson('generate-content-thinking.json'));
  });
});
