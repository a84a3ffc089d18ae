// The metrics plugin end to end: real requests through the openai SDK against the OpenAI mock
// (recorded payloads: 17 input and 4 output tokens, $0.00000495 at gpt-4o-mini's catalog
// prices), then the Prometheus text parsed and its series checked value by value.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type OpenAI from 'openai';
import { parse } from 'yaml';
import { openAIEnv } from '../../test/helpers/mock-openai.js';
import { failoverMocksForSuite } from '../../test/helpers/failover-mocks.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import type { PluginList } from '../../test/helpers/plugins.js';
import { parseSamples, samplesOf, valueOf } from '../../test/helpers/prometheus-text.js';
import type { Sample } from '../../test/helpers/prometheus-text.js';
import { SCRIPTED_FEATURES_ENTRY } from '../../test/helpers/scripted-features.test-plugin.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';

const CHAT = '/v1/chat/completions';
const MESSAGES = [{ role: 'user' as const, content: 'Say hello' }];
const COST_OF_ONE_CALL = 0.00000495;

function withMetrics(options: Record<string, unknown> = {}): PluginList {
  return [...defaultPlugins(), SCRIPTED_FEATURES_ENTRY, { name: 'metrics', options }];
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await fetch(url, { headers });
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return parseSamples(await res.text());
}

describe('metrics plugin @integration', () => {
  const mocks = failoverMocksForSuite();

  describe('on the gateway port', () => {
    let gw: TestGateway;
    let client: OpenAI;
    const metrics = (): Promise<Sample[]> => scrape(`${gw.url}/metrics`);
    const chatLabels = (status_class: string) => ({ route: CHAT, provider: 'openai', model: 'openai/gpt-4o-mini', status_class });

    before(async () => {
      gw = await startTestGateway({
        env: openAIEnv(mocks().mock),
        config: { plugins: withMetrics(), providers: mocks().providers },
      });
      client = gw.client();
    });
    after(() => gw.close());

    it('a chat call adds exactly one request, its 17 + 4 tokens and its $0.00000495', async () => {
      await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES });
      const s = await metrics();
      expect(valueOf(s, 'sluice_requests_total', chatLabels('2xx'))).to.equal(1);
      const byModel = { provider: 'openai', model: 'openai/gpt-4o-mini' };
      expect(valueOf(s, 'sluice_tokens_total', { ...byModel, type: 'input' })).to.equal(17);
      expect(valueOf(s, 'sluice_tokens_total', { ...byModel, type: 'output' })).to.equal(4);
      // None cached, none reasoning: those series start with the first call that has some.
      expect(valueOf(s, 'sluice_tokens_total', { ...byModel, type: 'cached_input' })).to.equal(undefined);
      expect(valueOf(s, 'sluice_tokens_total', { ...byModel, type: 'reasoning' })).to.equal(undefined);
      expect(valueOf(s, 'sluice_cost_usd_total', byModel)).to.equal(COST_OF_ONE_CALL);
      const timing = { route: CHAT, provider: 'openai', model: 'openai/gpt-4o-mini' };
      expect(valueOf(s, 'sluice_request_duration_seconds_count', timing)).to.equal(1);
      expect(valueOf(s, 'sluice_request_duration_seconds_bucket', { ...timing, le: '300' })).to.equal(1);
      expect(valueOf(s, 'sluice_request_duration_seconds_sum', timing)).to.be.greaterThan(0).and.lessThan(5);
      expect(valueOf(s, 'sluice_time_to_first_token_seconds_count', timing)).to.equal(undefined);
      expect(valueOf(s, 'sluice_provider_attempts_total', { provider: 'openai', status_class: '2xx' })).to.equal(1);
      expect(valueOf(s, 'sluice_upstream_duration_seconds_count', { provider: 'openai', status_class: '2xx' })).to.equal(1);
      expect(valueOf(s, 'sluice_requests_in_flight')).to.equal(0);
    });

    it('a streamed call adds its tokens and cost again, a time to first token, and leaves no stream in flight', async () => {
      const stream = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true });
      for await (const chunk of stream) void chunk;
      const s = await metrics();
      expect(valueOf(s, 'sluice_requests_total', chatLabels('2xx'))).to.equal(2);
      expect(valueOf(s, 'sluice_tokens_total', { provider: 'openai', model: 'openai/gpt-4o-mini', type: 'input' })).to.equal(34);
      expect(valueOf(s, 'sluice_tokens_total', { provider: 'openai', model: 'openai/gpt-4o-mini', type: 'output' })).to.equal(8);
      expect(valueOf(s, 'sluice_cost_usd_total', { provider: 'openai', model: 'openai/gpt-4o-mini' })).to.equal(2 * COST_OF_ONE_CALL);
      expect(valueOf(s, 'sluice_time_to_first_token_seconds_count', { route: CHAT, provider: 'openai', model: 'openai/gpt-4o-mini' })).to.equal(1);
      expect(valueOf(s, 'sluice_streams_in_flight')).to.equal(0);
      expect(valueOf(s, 'sluice_requests_in_flight')).to.equal(0);
    });

    it('counts an unknown model without its name, and a 429 by its reason', async () => {
      const unknown = await gw.fetch(CHAT, { method: 'POST', body: JSON.stringify({ model: 'nobody/x', messages: MESSAGES }) });
      expect(unknown.status).to.equal(404);
      for (const reject of ['rate', 'budget', 'budget']) {
        const res = await gw.fetch(CHAT, { method: 'POST', headers: { 'x-test-reject': reject }, body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: MESSAGES }) });
        expect(res.status).to.equal(429);
      }
      const s = await metrics();
      expect(valueOf(s, 'sluice_requests_total', { route: CHAT, provider: '', model: '', status_class: '4xx' })).to.equal(1);
      expect(valueOf(s, 'sluice_requests_total', chatLabels('4xx'))).to.equal(3);
      expect(valueOf(s, 'sluice_rejections_total', { reason: 'rate_limit' })).to.equal(1);
      expect(valueOf(s, 'sluice_rejections_total', { reason: 'budget' })).to.equal(2);
    });

    it('counts cache hits and misses, failover attempts by provider, and prices a hit at nothing', async () => {
      const before = await metrics();
      const cost = valueOf(before, 'sluice_cost_usd_total', { provider: 'openai', model: 'openai/gpt-4o-mini' })!;
      const call = (headers: Record<string, string>) => client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }, { headers });
      await call({ 'x-test-cache': 'hit' });
      await call({ 'x-test-cache': 'miss' });
      await call({ 'x-test-failover': 'broken' });
      const s = await metrics();
      expect(valueOf(s, 'sluice_cache_requests_total', { result: 'hit' })).to.equal(1);
      expect(valueOf(s, 'sluice_cache_requests_total', { result: 'miss' })).to.equal(1);
      expect(valueOf(s, 'sluice_failovers_total', { route: CHAT })).to.equal(1);
      expect(valueOf(s, 'sluice_provider_attempts_total', { provider: 'broken', status_class: '5xx' })).to.equal(1);
      expect(valueOf(s, 'sluice_provider_attempts_total', { provider: 'openai', status_class: '2xx' })).to.equal(4);
      // The miss and the failover call are each priced once; the hit adds nothing.
      expect(valueOf(s, 'sluice_cost_usd_total', { provider: 'openai', model: 'openai/gpt-4o-mini' })).to.equal(cost + 2 * COST_OF_ONE_CALL);
    });

    it('serves process, event-loop and audit metrics from the default registry', async () => {
      const s = await metrics();
      expect(samplesOf(s, 'process_cpu_user_seconds_total')).to.have.length(1);
      expect(samplesOf(s, 'nodejs_eventloop_lag_p99_seconds')).to.have.length(1);
      expect(valueOf(s, 'sluice_audit_queue_length')).to.be.a('number');
      expect(samplesOf(s, 'sluice_audit_spilled_total')).to.have.length(1);
    });

    it('serves every series the Grafana dashboard and the alert rules query', async () => {
      // The failover plugin's breakers gauge is there once the plugin is loaded in the process, as a gateway that lists it loads it.
      await import('../failover/index.js');
      const text = await (await fetch(`${gw.url}/metrics`)).text();
      const served = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
      const dashboard = JSON.parse(readFileSync('docs/grafana-dashboard.json', 'utf8')) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
      const alerts = parse(readFileSync('docs/prometheus-alerts.yaml', 'utf8')) as { groups: Array<{ rules: Array<{ expr: string }> }> };
      const queries = [...dashboard.panels.flatMap((p) => p.targets ?? []), ...alerts.groups.flatMap((g) => g.rules)].map((q) => q.expr);
      const queried = new Set(queries.flatMap((q) => [...q.matchAll(/\b((?:sluice|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!.replace(/_(bucket|sum|count)$/, ''))));
      expect([...queried].filter((name) => !served.has(name))).to.deep.equal([]);
      expect(queried.size).to.be.greaterThan(15);
    });
  });

  it('behind a bearer token: 401 in the envelope without it, the text with it; a capped origin\'s connection queue', async () => {
    const gw = await startTestGateway({
      env: openAIEnv(mocks().mock),
      config: { plugins: withMetrics({ bearer_token: 'scrape-token-0123' }), upstream: { connections_per_origin: 4 } },
    });
    try {
      const anonymous = await fetch(`${gw.url}/metrics`);
      expect(anonymous.status).to.equal(401);
      expect(await anonymous.json()).to.deep.equal({ error: { message: 'the metrics endpoint needs its bearer token', type: 'authentication_error', code: 'invalid_api_key', param: null } });
      const wrong = await fetch(`${gw.url}/metrics`, { headers: { authorization: 'Bearer scrape-token-0124' } });
      expect(wrong.status).to.equal(401);
      await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES });
      const s = await scrape(`${gw.url}/metrics`, { authorization: 'Bearer scrape-token-0123' });
      expect(valueOf(s, 'sluice_requests_in_flight')).to.equal(0);
      const origin = { origin: mocks().mock.url };
      expect(valueOf(s, 'sluice_upstream_connections_active', origin)).to.equal(0);
      expect(valueOf(s, 'sluice_upstream_calls_waiting', origin)).to.equal(0);
      expect(valueOf(s, 'sluice_upstream_queue_waited_total', origin)).to.equal(0);
      expect(valueOf(s, 'sluice_upstream_queue_refused_total', origin)).to.equal(0);
    } finally {
      await gw.close();
    }
  });

  it('on a port of its own: nothing at /metrics on the gateway port', async () => {
    const gw = await startTestGateway({ env: openAIEnv(mocks().mock), config: { plugins: withMetrics({ port: 0, host: '127.0.0.1' }) } });
    try {
      await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES });
      expect((await fetch(`${gw.url}/metrics`)).status).to.equal(404);
      const address = gw.running.gateway.services.metrics!.address()!;
      const s = await scrape(`http://127.0.0.1:${address.port}/metrics`);
      expect(valueOf(s, 'sluice_requests_total', { route: CHAT, provider: 'openai', model: 'openai/gpt-4o-mini', status_class: '2xx' })).to.equal(1);
      expect((await fetch(`http://127.0.0.1:${address.port}/other`)).status).to.equal(404);
    } finally {
      await gw.close();
    }
  });

  it('labels by key and request label only when asked, each capped, and caps model ids', async () => {
    const gw = await startTestGateway({
      env: { ...openAIEnv(mocks().mock), TAGGING_HEADER_1: 'X-User', TAGGING_HEADER_1_PREFIX: 'user' },
      config: { plugins: withMetrics({ key_label: 'id', labels: ['user'], max_label_values: 2, max_models: 1 }) },
    });
    try {
      for (const [user, model] of [['ann', 'openai/gpt-4o-mini'], ['bob', 'openai/gpt-4o-mini'], ['cy', 'openai/gpt-4o']]) {
        await gw.client().chat.completions.create({ model: model!, messages: MESSAGES }, { headers: { 'x-user': user! } });
      }
      const s = await scrape(`${gw.url}/metrics`);
      const requests = samplesOf(s, 'sluice_requests_total').map((x) => [x.labels['model'], x.labels['key'], x.labels['label_user'], x.value]);
      expect(requests).to.have.deep.members([
        ['openai/gpt-4o-mini', 'master', 'ann', 1],
        ['openai/gpt-4o-mini', 'master', 'bob', 1],
        ['other', 'master', 'other', 1],
      ]);
      expect(valueOf(s, 'sluice_tokens_total', { provider: 'openai', model: 'openai/gpt-4o-mini', type: 'input', key: 'master', label_user: 'ann' })).to.equal(17);
      expect(samplesOf(s, 'sluice_cost_usd_total', { label_user: 'bob' })[0]!.value).to.equal(COST_OF_ONE_CALL);
    } finally {
      await gw.close();
    }
  });
});
