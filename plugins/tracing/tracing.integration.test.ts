// The tracing plugin end to end: real requests (the openai SDK, passthrough over fetch) against
// the OpenAI mock, every span captured by an in-memory exporter, their names, kinds, parentage
// and attributes checked, and the trace context the provider was sent.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { expect } from 'chai';
import { openAIEnv } from '../../test/helpers/mock-openai.js';
import { failoverMocksForSuite } from '../../test/helpers/failover-mocks.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { SCRIPTED_FEATURES_ENTRY } from '../../test/helpers/scripted-features.test-plugin.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { StartOptions, TestGateway } from '../../test/helpers/start-gateway.js';
import { MEMORY_EXPORTER_ENTRY, captured } from './memory-exporter.test-plugin.js';

const MESSAGES = [{ role: 'user' as const, content: 'Say hello' }];
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';
const CLIENT_TRACEPARENT = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

function spans(): ReadableSpan[] {
  return captured.exporter.getFinishedSpans();
}

function only(kind: SpanKind): ReadableSpan {
  const found = spans().filter((s) => s.kind === kind);
  expect(found, `${SpanKind[kind]} spans`).to.have.length(1);
  return found[0]!;
}

describe('tracing plugin @integration', () => {
  const mocks = failoverMocksForSuite();
  beforeEach(() => {
    captured.exporter.reset();
    captured.traceIds.clear();
  });

  function start(tracingOptions: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<TestGateway> {
    const options: StartOptions = {
      env: { ...openAIEnv(mocks().mock), ...env },
      config: {
        plugins: [...defaultPlugins(), SCRIPTED_FEATURES_ENTRY, { name: 'tracing', options: { exporter: 'none', ...tracingOptions } }, MEMORY_EXPORTER_ENTRY],
        providers: mocks().providers,
      },
    };
    return startTestGateway(options);
  }

  describe('default options', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await start();
    });
    after(() => gw.close());

    it('a chat call: a server span under the client\'s traceparent, a client span under it, GenAI attributes on both', async () => {
      const { response } = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }, { headers: { traceparent: CLIENT_TRACEPARENT } }).withResponse();
      const requestId = response.headers.get('x-request-id')!;
      const server = only(SpanKind.SERVER);
      const attempt = only(SpanKind.CLIENT);
      expect(server.name).to.equal('POST /v1/chat/completions');
      expect(server.spanContext().traceId).to.equal(CLIENT_TRACE);
      expect(server.parentSpanContext?.spanId).to.equal(CLIENT_SPAN);
      expect(attempt.spanContext().traceId).to.equal(CLIENT_TRACE);
      expect(attempt.parentSpanContext?.spanId).to.equal(server.spanContext().spanId);
      expect(attempt.name).to.equal('chat gpt-4o-mini');
      expect(attempt.attributes).to.deep.equal({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'sluice.provider': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'http.response.status_code': 200,
        'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.usage.input_tokens': 17,
        'gen_ai.usage.output_tokens': 4,
      });
      expect(server.attributes).to.deep.equal({
        'http.request.method': 'POST',
        'http.route': '/v1/chat/completions',
        'url.path': '/v1/chat/completions',
        'gen_ai.operation.name': 'chat',
        'sluice.request_id': requestId,
        'http.response.status_code': 200,
        'gen_ai.request.model': 'openai/gpt-4o-mini',
        'gen_ai.provider.name': 'openai',
        'sluice.provider': 'openai',
        'gen_ai.usage.input_tokens': 17,
        'gen_ai.usage.output_tokens': 4,
        'sluice.key_id': 'master',
        'sluice.cost_usd': 0.00000495,
        'sluice.cache_hit': false,
      });
      expect(server.status.code).to.equal(SpanStatusCode.UNSET);
      // The attempt lies within the request.
      expect(hrMs(attempt.startTime)).to.be.at.least(hrMs(server.startTime));
      expect(hrMs(attempt.endTime)).to.be.at.most(hrMs(server.endTime));
      expect(captured.traceIds.get(requestId)).to.equal(CLIENT_TRACE);
      // A translated route tells the provider nothing of the trace by default.
      expect(mocks().mock.last().headers['traceparent']).to.equal(undefined);
    });

    it('a streamed call: the attempt span lasts until the stream ended and carries the stream\'s usage', async () => {
      const stream = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true });
      for await (const chunk of stream) void chunk;
      const server = only(SpanKind.SERVER);
      const attempt = only(SpanKind.CLIENT);
      expect(attempt.parentSpanContext?.spanId).to.equal(server.spanContext().spanId);
      expect(hrMs(attempt.endTime)).to.equal(hrMs(server.endTime));
      expect(attempt.attributes['gen_ai.usage.input_tokens']).to.equal(17);
      expect(attempt.attributes['gen_ai.usage.output_tokens']).to.equal(4);
      expect(attempt.attributes['gen_ai.response.finish_reasons']).to.deep.equal(['stop']);
      expect(attempt.attributes['gen_ai.response.model']).to.equal('gpt-4o-mini-2024-07-18');
      // A new trace: no client context came.
      expect(server.parentSpanContext).to.equal(undefined);
    });

    it('failover: one client span per attempt, the failed one in error', async () => {
      await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }, { headers: { 'x-test-failover': 'broken' } });
      const server = only(SpanKind.SERVER);
      const attempts = spans().filter((s) => s.kind === SpanKind.CLIENT);
      expect(attempts.map((s) => [s.attributes['sluice.provider'], s.attributes['http.response.status_code'], s.status.code])).to.deep.equal([
        ['broken', 502, SpanStatusCode.ERROR],
        ['openai', 200, SpanStatusCode.UNSET],
      ]);
      expect(attempts[0]!.attributes['error.type']).to.equal('server_error');
      for (const a of attempts) expect(a.parentSpanContext?.spanId).to.equal(server.spanContext().spanId);
      expect(server.status.code).to.equal(SpanStatusCode.UNSET);
    });

    it('an error the client caused: the server span records it, not as a server error', async () => {
      const res = await gw.fetch('/v1/chat/completions', { method: 'POST', headers: { 'x-test-reject': 'budget' }, body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: MESSAGES }) });
      expect(res.status).to.equal(429);
      const server = only(SpanKind.SERVER);
      expect(server.attributes['error.type']).to.equal('budget_exceeded');
      expect(server.attributes['http.response.status_code']).to.equal(429);
      expect(server.status.code).to.equal(SpanStatusCode.UNSET);
      expect(spans().filter((s) => s.kind === SpanKind.CLIENT)).to.have.length(0);
    });

    it('passthrough: the provider is told the gateway\'s span as the parent, in the client\'s trace', async () => {
      const res = await gw.fetch('/p/openai/chat/completions', { method: 'POST', headers: { traceparent: CLIENT_TRACEPARENT }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: MESSAGES }) });
      expect(res.status).to.equal(200);
      await res.text();
      const server = only(SpanKind.SERVER);
      const sent = TRACEPARENT.exec(String(mocks().mock.last().headers['traceparent']));
      expect(sent?.[1]).to.equal(CLIENT_TRACE);
      expect(sent?.[2]).to.equal(server.spanContext().spanId);
      const attempt = only(SpanKind.CLIENT);
      expect(attempt.parentSpanContext?.spanId).to.equal(server.spanContext().spanId);
      expect(attempt.attributes['gen_ai.request.model']).to.equal('gpt-4o-mini');
      expect(attempt.attributes['gen_ai.usage.input_tokens']).to.equal(17);
      expect(attempt.attributes['gen_ai.response.model']).to.equal('gpt-4o-mini-2024-07-18');
      expect(attempt.attributes['gen_ai.response.finish_reasons']).to.deep.equal(['stop']);
    });
  });

  it('propagate_translated: the provider is told the attempt span as the parent', async () => {
    const gw = await start({ propagate_translated: true });
    try {
      await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }, { headers: { traceparent: CLIENT_TRACEPARENT } });
      const attempt = only(SpanKind.CLIENT);
      expect(mocks().mock.last().headers['traceparent']).to.equal(`00-${CLIENT_TRACE}-${attempt.spanContext().spanId}-01`);
    } finally {
      await gw.close();
    }
  });

  it('OTEL_TRACES_SAMPLER=always_off: no span recorded, no trace id for the audit', async () => {
    const gw = await start({}, { OTEL_TRACES_SAMPLER: 'always_off' });
    try {
      const { response } = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }).withResponse();
      expect(spans()).to.have.length(0);
      expect(captured.traceIds.get(response.headers.get('x-request-id')!)).to.equal(null);
    } finally {
      await gw.close();
    }
  });

  it('an unknown OTEL_TRACES_SAMPLER stops the start with its name', async () => {
    let error: unknown;
    try {
      await start({}, { OTEL_TRACES_SAMPLER: 'sometimes' });
    } catch (err) {
      error = err;
    }
    expect(String(error)).to.contain("OTEL_TRACES_SAMPLER: 'sometimes' is not one of");
  });
});

function hrMs(time: [number, number]): number {
  return time[0] * 1000 + time[1] / 1e6;
}
