// Export over OTLP/HTTP to a receiver of the tests' own (127.0.0.1): configured only by the standard
// OTEL_* variables, spans batched and sent as OTLP JSON, flushed when the gateway closes.
import { expect } from 'chai';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import { startOtlpReceiver } from '../../test/helpers/otlp-receiver.js';
import type { OtlpAttribute, OtlpReceiver } from '../../test/helpers/otlp-receiver.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';

function attribute(attributes: OtlpAttribute[], key: string): OtlpAttribute['value'] | undefined {
  return attributes.find((a) => a.key === key)?.value;
}

describe('tracing: OTLP/HTTP export @integration', () => {
  let mock: MockProvider;
  let receiver: OtlpReceiver;

  before(async () => {
    mock = await startOpenAIMock();
    receiver = await startOtlpReceiver();
  });
  after(async () => {
    await mock.close();
    await receiver.close();
  });

  it('sends the request\'s two spans, with the service name and the configured headers, by the time the gateway closed', async () => {
    const gw = await startTestGateway({
      env: {
        ...openAIEnv(mock),
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=col%20secret',
        OTEL_SERVICE_NAME: 'sluice-under-test',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '1',
      },
      config: { plugins: [...defaultPlugins(), 'tracing'] },
    });
    let requestId: string;
    try {
      const { response } = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
      requestId = response.headers.get('x-request-id')!;
      // Batched: nothing is sent while the request is answered.
      expect(receiver.received).to.have.length(0);
    } finally {
      await gw.close();
    }
    expect(receiver.received).to.have.length(1);
    const [exported] = receiver.received;
    expect(exported!.path).to.equal('/v1/traces');
    expect(exported!.headers['content-type']).to.equal('application/json');
    expect(exported!.headers['x-collector-token']).to.equal('col secret');
    const [resourceSpans] = exported!.body.resourceSpans;
    expect(attribute(resourceSpans!.resource.attributes, 'service.name')).to.deep.equal({ stringValue: 'sluice-under-test' });
    const spans = resourceSpans!.scopeSpans.flatMap((s) => s.spans);
    expect(spans.map((s) => s.name).sort()).to.deep.equal(['POST /v1/chat/completions', 'chat gpt-4o-mini']);
    const server = spans.find((s) => s.name === 'POST /v1/chat/completions')!;
    const attempt = spans.find((s) => s.name === 'chat gpt-4o-mini')!;
    expect(server.traceId).to.match(/^[0-9a-f]{32}$/);
    expect(attempt.traceId).to.equal(server.traceId);
    expect(attempt.parentSpanId).to.equal(server.spanId);
    expect(attribute(server.attributes, 'sluice.request_id')).to.deep.equal({ stringValue: requestId! });
    expect(attribute(attempt.attributes, 'gen_ai.provider.name')).to.deep.equal({ stringValue: 'openai' });
    expect(attribute(attempt.attributes, 'gen_ai.usage.input_tokens')).to.deep.equal({ intValue: 17 });
    expect(attribute(attempt.attributes, 'gen_ai.usage.output_tokens')).to.deep.equal({ intValue: 4 });
    expect(attribute(attempt.attributes, 'gen_ai.response.finish_reasons')).to.deep.equal({ arrayValue: { values: [{ stringValue: 'stop' }] } });
    expect(attribute(server.attributes, 'sluice.cost_usd')).to.deep.equal({ doubleValue: 0.00000495 });
    expect(attribute(server.attributes, 'sluice.cache_hit')).to.deep.equal({ boolValue: false });
  });
});
