// /v1/responses end to end through the official openai SDK: adapted from chat for the offline
// demo provider, native (untouched) for OpenAI. Demo usage follows plugins/provider-demo/tokens.ts:
// 'hi' is a 1-token message, so the prompt is 3 + 4 + 1 = 8 tokens and the answer 1.
import { expect } from 'chai';
import { expectError } from '../../test/helpers/errors.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';

const DEMO = { demo: { stream_delay_ms: 0 } };
const HI_USAGE = { input_tokens: 8, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 9 };

describe('responses-adapter: /v1/responses for a chat-only provider (demo) @integration', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway({ config: { providers: DEMO } });
  });
  after(() => gw.close());

  it('answers a Responses call through the provider chat', async () => {
    const res = await gw.client().responses.create({ model: 'demo/echo', input: 'hi' });
    expect(res.output_text).to.equal('hi');
    expect(res.id).to.match(/^resp_[0-9a-f]{48}$/);
    expect([res.object, res.status, res.model]).to.deep.equal(['response', 'completed', 'echo']);
    expect(res.output).to.have.length(1);
    expect(res.output[0]).to.deep.include({ id: `msg_${res.id.slice(5)}_0`, type: 'message', status: 'completed', role: 'assistant' });
    expect(res.usage).to.deep.equal(HI_USAGE);
  });

  it('sets the answering provider and model headers as for any model call', async () => {
    const res = await gw.fetch('/v1/responses', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', input: 'hi' }) });
    expect(res.status).to.equal(200);
    expect([res.headers.get('x-gateway-provider'), res.headers.get('x-gateway-model')]).to.deep.equal(['demo', 'echo']);
  });

  it('streams the Responses event sequence, ending with response.completed and its usage', async () => {
    const stream = await gw.client().responses.create({ model: 'demo/echo', input: 'Hello there, gateway!', stream: true });
    const types: string[] = [];
    const sequence: number[] = [];
    let text = '';
    let completed: { usage?: unknown; output_text?: unknown; status?: string } | null = null;
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types).to.deep.equal([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(sequence).to.deep.equal(types.map((_t, i) => i));
    expect(text).to.equal('Hello there, gateway!');
    expect(completed!.status).to.equal('completed');
    // 'Hello there, gateway!' is 21 characters: 5 tokens; the prompt 3 + 4 + 5 = 12.
    expect(completed!.usage).to.deep.equal({ input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 17 });
  });

  it('accepts a function call round trip in input without tools', async () => {
    const res = await gw.client().responses.create({
      model: 'demo/echo',
      input: [
        { role: 'user', content: 'What is the weather in Paris?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"temp_c":18}' },
      ],
    });
    expect(res.status).to.equal('completed');
    expect(res.output_text).to.equal('What is the weather in Paris?');
  });

  it('answers incomplete when the provider stops at max_output_tokens, streaming and not', async () => {
    const res = await gw.client().responses.create({ model: 'demo/lorem', input: 'x', max_output_tokens: 16 });
    expect([res.status, res.incomplete_details]).to.deep.equal(['incomplete', { reason: 'max_output_tokens' }]);
    expect(res.output[0]).to.deep.include({ type: 'message', status: 'incomplete' });
    expect(res.usage!.output_tokens).to.be.at.most(16);
    const stream = await gw.client().responses.create({ model: 'demo/lorem', input: 'x', max_output_tokens: 16, stream: true });
    let last = '';
    for await (const event of stream) last = event.type;
    expect(last).to.equal('response.incomplete');
  });

  it('refuses previous_response_id with a 400 that says why', async () => {
    const res = await gw.fetch('/v1/responses', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', input: 'hi', previous_response_id: 'resp_1' }) });
    await expectError(res, 400, {
      message: "'previous_response_id' continues a stored response, but this model is served through Chat Completions, where nothing is stored: send the whole conversation in 'input'",
      type: 'invalid_request_error',
      code: 'unsupported_parameter',
      param: 'previous_response_id',
    });
  });

  it('refuses hosted tools, naming the tool', async () => {
    const res = await gw.fetch('/v1/responses', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', input: 'hi', tools: [{ type: 'web_search' }] }) });
    await expectError(res, 400, {
      message: "'web_search' tools run on OpenAI's servers; this model is served through Chat Completions, which can only call function tools",
      type: 'invalid_request_error',
      code: 'unsupported_value',
      param: 'tools[0].type',
    });
  });
});

describe('responses-adapter: native Responses providers are not adapted @integration', () => {
  let mock: MockProvider;
  let gw: TestGateway;

  before(async () => {
    mock = await startOpenAIMock();
    gw = await startTestGateway({ env: openAIEnv(mock), config: { providers: { demo: { enabled: true, stream_delay_ms: 0 } } } });
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  /** Model calls the mock received (model discovery lists models in the background). */
  const calls = (): string[] => mock.requests.filter((r) => r.method === 'POST').map((r) => r.path);

  it('sends OpenAI Responses calls to its own /v1/responses, streaming and not', async () => {
    const res = await gw.client().responses.create({ model: 'openai/gpt-4o-mini', input: 'Say hello', previous_response_id: 'resp_prev' });
    expect(res.id).to.equal('resp_0d8b81b7c805508d0069a31431b68c8194af45c94a6952706b');
    const stream = await gw.client().responses.create({ model: 'openai/gpt-4o-mini', input: 'Say hello', stream: true });
    for await (const event of stream) void event;
    expect(calls()).to.deep.equal(['/v1/responses', '/v1/responses']);
    expect((mock.requests.find((r) => r.method === 'POST')!.json as { previous_response_id: string }).previous_response_id).to.equal('resp_prev');
  });

  it('adapts the chat-only provider beside it in the same gateway', async () => {
    const res = await gw.client().responses.create({ model: 'demo/echo', input: 'hi' });
    expect(res.output_text).to.equal('hi');
    expect(calls()).to.deep.equal([]);
  });
});
