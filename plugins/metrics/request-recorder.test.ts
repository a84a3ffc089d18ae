// What one finished request adds, from a context's fields alone: the parts of the usage that
// most recorded calls leave at zero (cached input, reasoning), and the status classes.
import { expect } from 'chai';
import { Registry } from 'prom-client';
import type { RequestContext } from '../../core/context.js';
import { emptyUsage } from '../../core/types/usage.js';
import { parseSamples, valueOf } from '../../test/helpers/prometheus-text.js';
import { Attribution } from './attribution.js';
import { createGatewayMetrics } from './gateway-metrics.js';
import { RequestRecorder, statusClass } from './request-recorder.js';

function finishedContext(fields: Partial<RequestContext>): RequestContext {
  const base = {
    route: { path: '/v1/responses' },
    res: { getHeader: () => undefined },
    target: { provider: { name: 'openai', type: 'openai' }, model: 'o4-mini', id: 'openai/o4-mini', metadata: null },
    model: 'openai/o4-mini',
    status: 200,
    stream: false,
    durationMs: 1500,
    firstByteMs: 1500,
    attempts: [],
    usage: null,
    cost: null,
    error: null,
    cacheHit: false,
    principal: null,
    labels: {},
  };
  return { ...base, ...fields } as unknown as RequestContext;
}

describe('metrics: request recorder', () => {
  it('adds cached input and reasoning tokens when a call has them', async () => {
    const registry = new Registry();
    const attribution = new Attribution({ key_label: 'none', labels: [], max_label_values: 10 });
    const recorder = new RequestRecorder(createGatewayMetrics(registry, attribution.names), attribution, 10);
    const usage = { ...emptyUsage(), input_tokens: 1200, cached_input_tokens: 1024, output_tokens: 300, reasoning_tokens: 256, total_tokens: 1500 };
    recorder.finished(finishedContext({ usage, cost: { total_usd: '0.0025', source: 'catalog' } }), false, false);
    recorder.finished(finishedContext({ usage: { ...usage, cached_input_tokens: 0 } }), false, false);
    const s = parseSamples(await registry.metrics());
    const byModel = { provider: 'openai', model: 'openai/o4-mini' };
    expect(valueOf(s, 'sluice_tokens_total', { ...byModel, type: 'input' })).to.equal(2400);
    expect(valueOf(s, 'sluice_tokens_total', { ...byModel, type: 'cached_input' })).to.equal(1024);
    expect(valueOf(s, 'sluice_tokens_total', { ...byModel, type: 'output' })).to.equal(600);
    expect(valueOf(s, 'sluice_tokens_total', { ...byModel, type: 'reasoning' })).to.equal(512);
    expect(valueOf(s, 'sluice_cost_usd_total', byModel)).to.equal(0.0025);
    expect(valueOf(s, 'sluice_request_duration_seconds_bucket', { route: '/v1/responses', ...byModel, le: '1' })).to.equal(0);
    expect(valueOf(s, 'sluice_request_duration_seconds_bucket', { route: '/v1/responses', ...byModel, le: '2.5' })).to.equal(2);
  });

  it('classes statuses by their hundreds; a client gone first (499) is a 4xx', () => {
    expect([200, 201, 404, 429, 499, 500, 504].map(statusClass)).to.deep.equal(['2xx', '2xx', '4xx', '4xx', '4xx', '5xx', '5xx']);
  });
});
