// A `"stream": true` request the provider answers with `application/json`: a chat completion
// or a Responses object is replayed to the client as the stream that would have carried it and
// metered from the answer's usage; an answer with no exact stream form is a 502, still
// metered. (Before: chat relayed the raw object as one event then [DONE], /v1/responses
// answered 200 with an empty body, both audited with 0 tokens.)
import { expect } from 'chai';
import { fixtureJson } from '../helpers/fixtures.js';
import { GEMINI_KEY, GeminiMock, nativeJson } from '../helpers/mock-gemini.js';
import { OPENAI_KEY, openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { sendJson } from '../helpers/mock-provider.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { expectError } from '../helpers/errors.js';
import { auditEntry } from '../helpers/audit-entry.js';
import { sseData } from '../helpers/sse.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

interface Entry {
  status: number;
  stream: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_source: string | null;
  response_body: unknown;
}

const RESPONSE = fixtureJson<Record<string, unknown>>('recorded/openai/responses.json');
const COMPLETION = fixtureJson<{ id: string; created: number; model: string; system_fingerprint: string; service_tier: string }>('recorded/openai/chat_completion.json');

describe('a stream request answered with JSON @integration', () => {
  let openai: MockProvider;
  let gemini: GeminiMock;
  let gw: TestGateway;
  /** What the next /v1/responses call answers. */
  let response = RESPONSE;

  before(async () => {
    openai = await startOpenAIMock();
    // Whatever the request asks, the answer is the whole JSON object (a server that ignores `stream`).
    openai.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 200, COMPLETION));
    openai.on('POST', '/v1/responses', (_req, res) => sendJson(res, 200, response));
    gemini = await GeminiMock.start();
    gw = await startTestGateway({
      env: { ...openAIEnv(openai), TOGETHER_API_KEY: OPENAI_KEY, TOGETHER_BASE_URL: `${openai.url}/v1`, GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url },
    });
  });
  after(async () => {
    await gw.close();
    await Promise.all([openai.close(), gemini.close()]);
  });

  it('chat: the client gets a proper stream (chunks, usage chunk, [DONE]) and the call is metered', async () => {
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    const id = res.headers.get('x-request-id')!;
    const head = { id: COMPLETION.id, created: COMPLETION.created, model: COMPLETION.model, service_tier: COMPLETION.service_tier, system_fingerprint: COMPLETION.system_fingerprint, object: 'chat.completion.chunk' };
    const usage = { prompt_tokens: 17, completion_tokens: 4, total_tokens: 21, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } };
    expect(sseData(await res.text())).to.deep.equal([
      JSON.stringify({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello, World!', refusal: null, annotations: [] }, finish_reason: null, logprobs: null }] }),
      JSON.stringify({ ...head, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      JSON.stringify({ ...head, choices: [], usage }),
      '[DONE]',
    ]);
    const entry = await auditEntry<Entry>(gw, id);
    expect(entry).to.deep.include({ status: 200, stream: true, input_tokens: 17, output_tokens: 4, cost_source: 'computed' });
    // The stream folded back, as for any stream.
    expect(entry.response_body).to.deep.include({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello, World!' }, finish_reason: 'stop' }] });
  });

  it('chat through the openai SDK: the streamed text is the answer, without the usage chunk it did not ask for', async () => {
    const stream = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    let usageChunks = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usageChunks++;
    }
    expect(text).to.equal('Hello, World!');
    expect(usageChunks).to.equal(0);
  });

  it('gemini chat: a generateContent-shaped JSON answer to a stream request is replayed as a stream', async () => {
    gemini.answerNext({ json: nativeJson('generate-content-thinking.json') });
    const stream = await gw.client().chat.completions.create({ model: 'gemini/gemini-2.5-flash', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.finish_reason ?? null)).to.deep.equal([null, 'stop', null]);
    expect(chunks[chunks.length - 1]!.usage?.total_tokens).to.equal(1541);
  });

  it('/v1/responses over chat (together): the chat answer becomes a Responses stream ending in response.completed with its usage', async () => {
    const res = await gw.fetch('/v1/responses', { method: 'POST', body: JSON.stringify({ model: 'together/gpt-4o-mini', stream: true, input: 'hi' }) });
    expect(res.status).to.equal(200);
    const id = res.headers.get('x-request-id')!;
    const events = sseData(await res.text()).map((d) => JSON.parse(d) as { type: string; delta?: string; response?: { status: string; usage: { input_tokens: number; output_tokens: number } } });
    expect(events[0]!.type).to.equal('response.created');
    expect(events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('')).to.equal('Hello, World!');
    const last = events[events.length - 1]!;
    expect(last.type).to.equal('response.completed');
    expect(last.response).to.deep.include({ status: 'completed' });
    expect(last.response!.usage).to.deep.include({ input_tokens: 17, output_tokens: 4 });
    expect(await auditEntry<Entry>(gw, id)).to.deep.include({ status: 200, input_tokens: 17, output_tokens: 4 });
  });

  it('native /v1/responses: the JSON answer becomes the Responses stream OpenAI sends, which the openai SDK folds back into the same response', async () => {
    const stream = gw.client().responses.stream({ model: 'openai/gpt-4o-mini', input: 'hi' });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    const final = await stream.finalResponse();
    expect(types).to.deep.equal([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
    ]);
    // The SDK checked each event against the item and part it opened; what it folded is the answer.
    expect([final.id, final.status, final.output_text]).to.deep.equal([RESPONSE['id'], 'completed', 'Hello, World!']);
    expect(final.usage).to.deep.equal(RESPONSE['usage']);
  });

  it('native /v1/responses stream: the replay is metered from the answer, as a real stream', async () => {
    const res = await gw.fetch('/v1/responses', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream: true, input: 'hi' }) });
    expect(res.status).to.equal(200);
    const id = res.headers.get('x-request-id')!;
    const events = sseData(await res.text()).map((d) => JSON.parse(d) as { sequence_number: number });
    expect(events.map((e) => e.sequence_number)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await auditEntry<Entry>(gw, id)).to.deep.include({ status: 200, stream: true, input_tokens: 17, output_tokens: 5, cost_source: 'computed' });
  });

  it('native /v1/responses: an answer with an item that has no stream form is a 502 stream_expected, and the call is still metered', async () => {
    response = { ...RESPONSE, output: [{ id: 'ws_1', type: 'web_search_call', status: 'completed' }, ...(RESPONSE['output'] as unknown[])] };
    try {
      const res = await gw.fetch('/v1/responses', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream: true, input: 'hi' }) });
      const id = res.headers.get('x-request-id')!;
      await expectError(res, 502, {
        message: "provider 'openai' answered a stream request with a JSON body that cannot be replayed as a stream exactly",
        type: 'provider_error',
        code: 'stream_expected',
        param: null,
        provider: 'openai',
      });
      expect(await auditEntry<Entry>(gw, id)).to.deep.include({ status: 502, input_tokens: 17, output_tokens: 5, cost_source: 'computed' });
    } finally {
      response = RESPONSE;
    }
  });
});
