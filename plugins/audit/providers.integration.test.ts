// GET /admin/providers through HTTP: a gateway in front of a healthy OpenAI mock (`openai`) and
// one that fails some calls (`flaky`), called with the openai SDK; the figures are checked
// against the calls made, and the durations against the audit entries themselves.
import { expect } from 'chai';
import { fixtureJson } from '../../test/helpers/fixtures.js';
import { expectError } from '../../test/helpers/errors.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import { sendJson } from '../../test/helpers/mock-provider.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import type { ProviderView } from './routes/providers.js';

interface Summary {
  provider: string | null;
  status: number;
  duration_ms: number;
  error: unknown;
  time: string;
}

/** The flaky mock answers by the last message: `fail` 500, `rate` 429, `bad` 400, anything else the recorded completion. */
async function startFlakyMock(): Promise<MockProvider> {
  const mock = await startOpenAIMock();
  mock.on('POST', '/v1/chat/completions', (req, res) => {
    const content = (req.json as { messages: Array<{ content: string }> }).messages.at(-1)!.content;
    if (content === 'fail') return sendJson(res, 500, { error: { message: 'scripted outage', type: 'server_error', code: null } });
    if (content === 'rate') return sendJson(res, 429, { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } });
    if (content === 'bad') return sendJson(res, 400, { error: { message: "'temperature' is out of range", type: 'invalid_request_error', code: null } });
    sendJson(res, 200, fixtureJson('recorded/openai/chat_completion.json'));
  });
  return mock;
}

describe('GET /admin/providers @integration', function () {
  this.timeout(30_000);
  let good: MockProvider;
  let flaky: MockProvider;

  before(async () => {
    good = await startOpenAIMock();
    flaky = await startFlakyMock();
  });
  after(async () => {
    await good.close();
    await flaky.close();
  });

  const start = (plugins = defaultPlugins()): Promise<TestGateway> =>
    startTestGateway({
      env: openAIEnv(good),
      config: { providers: { flaky: { type: 'openai', base_url: `${flaky.url}/v1`, api_key: 'sk-flaky-upstream-secret' } }, plugins },
    });
  const providers = async (gw: TestGateway, query = ''): Promise<{ from: string; to: string; data: ProviderView[] }> => {
    const res = await gw.fetch(`/admin/providers${query}`);
    expect(res.status, await res.clone().text()).to.equal(200);
    return (await res.json()) as { from: string; to: string; data: ProviderView[] };
  };
  /** Sends each message to flaky/gpt-4o-mini, in order, and one call to openai; returns the statuses. */
  const traffic = async (gw: TestGateway, messages: string[]): Promise<number[]> => {
    const statuses: number[] = [];
    for (const content of messages) {
      statuses.push(
        await gw
          .client()
          .chat.completions.create({ model: 'flaky/gpt-4o-mini', messages: [{ role: 'user', content }] })
          .then(
            () => 200,
            (err: { status: number }) => err.status,
          ),
      );
    }
    await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    return statuses;
  };
  /** Average (to the µs) and nearest-rank p95 of the successful answers' durations, from the audit log. */
  const durations = async (gw: TestGateway, provider: string): Promise<[number, number]> => {
    const entries = ((await (await gw.fetch(`/admin/audit?provider=${provider}`)).json()) as { data: Summary[] }).data;
    const ms = entries.filter((e) => e.status < 400 && e.error === null).map((e) => e.duration_ms).sort((a, b) => a - b);
    return [Math.round((ms.reduce((a, b) => a + b, 0) / ms.length) * 1000) / 1000, ms[Math.ceil(0.95 * ms.length) - 1]!];
  };

  it('counts each provider\'s requests, failures and client errors exactly, with the last failure, and no breakers without failover', async () => {
    const gw = await start();
    try {
      expect(await traffic(gw, ['ok', 'fail', 'ok', 'bad', 'rate', 'ok'])).to.deep.equal([200, 502, 200, 400, 429, 200]);
      const started = Date.now();
      const body = await providers(gw);
      expect(Date.parse(body.to) - Date.parse(body.from)).to.equal(3_600_000);
      expect(Date.parse(body.to)).to.be.within(started - 1000, Date.now());
      const [flakyRow, openaiRow] = [body.data.find((p) => p.name === 'flaky')!, body.data.find((p) => p.name === 'openai')!];
      const models = (await gw.client().models.list()).data.filter((m) => m.id.startsWith('flaky/')).length;
      expect(models).to.be.greaterThan(0);
      expect({ ...flakyRow, avg_duration_ms: 0, p95_duration_ms: 0, last_error: { ...flakyRow.last_error, time: '' } }).to.deep.equal({
        name: 'flaky',
        type: 'openai',
        base_url: flaky.url,
        models,
        requests: 6,
        // The 500 (answered 502) and the provider's own 429; its 400 refused the request itself.
        errors: 2,
        client_errors: 1,
        error_rate: 0.3333,
        avg_duration_ms: 0,
        p95_duration_ms: 0,
        last_error: { time: '', status: 429, code: 'rate_limit_exceeded', message: 'slow down' },
        breakers: null,
      });
      expect([flakyRow.avg_duration_ms, flakyRow.p95_duration_ms]).to.deep.equal(await durations(gw, 'flaky'));
      const rateLimited = ((await (await gw.fetch('/admin/audit?provider=flaky&status=429')).json()) as { data: Summary[] }).data;
      expect(flakyRow.last_error!.time).to.equal(rateLimited[0]!.time);
      expect(openaiRow).to.deep.include({ requests: 1, errors: 0, client_errors: 0, error_rate: 0, last_error: null, breakers: null, base_url: good.url });
      // Sorted by name; every registered instance has a row, with or without calls.
      expect(body.data.map((p) => p.name)).to.deep.equal(['flaky', 'openai']);
      expect(JSON.stringify(body)).not.to.include('sk-flaky-upstream-secret');
    } finally {
      await gw.close();
    }
  });

  it('shows the failover plugin\'s breakers per target: open, with its end, after two failures in a row', async () => {
    const failover = { name: 'failover', options: { retry: { max_retries: 0 }, breaker: { failure_threshold: 2, cooldown_ms: 60_000 } } };
    const gw = await start([...defaultPlugins(), failover]);
    try {
      // ok, fail (1), ok (reset), bad (not the provider's failure), rate (1), fail (2: open).
      expect(await traffic(gw, ['ok', 'fail', 'ok', 'bad', 'rate', 'fail'])).to.deep.equal([200, 502, 200, 400, 429, 502]);
      const opened = Date.now();
      const { data } = await providers(gw);
      const flakyRow = data.find((p) => p.name === 'flaky')!;
      expect([flakyRow.requests, flakyRow.errors, flakyRow.client_errors, flakyRow.error_rate]).to.deep.equal([6, 3, 1, 0.5]);
      expect({ ...flakyRow.last_error, time: '' }).to.deep.equal({ time: '', status: 502, code: 'server_error', message: 'scripted outage' });
      expect(flakyRow.breakers).to.have.lengthOf(1);
      const breaker = flakyRow.breakers![0]!;
      expect({ ...breaker, until: null }).to.deep.equal({ target: 'flaky/gpt-4o-mini', state: 'open', failures: 2, until: null });
      expect(Date.parse(breaker.until!)).to.be.within(opened + 60_000 - 5000, opened + 60_000);
      expect(data.find((p) => p.name === 'openai')!.breakers).to.deep.equal([]);
      // While open, the target is skipped: nothing reaches the provider, and the call is its failure.
      const before = flaky.requests.length;
      expect(await traffic(gw, ['ok'])).to.deep.equal([503]);
      expect(flaky.requests.length).to.equal(before);
      const after = (await providers(gw)).data.find((p) => p.name === 'flaky')!;
      expect([after.requests, after.errors, after.last_error!.status, after.last_error!.code]).to.deep.equal([7, 4, 503, 'circuit_open']);
    } finally {
      await gw.close();
    }
  });

  it('takes from and to as /admin/usage does, refuses anything else with a 400 naming it, and is for admins only', async () => {
    const gw = await start();
    try {
      await traffic(gw, ['ok']);
      const body = await providers(gw, '?from=2020-01-01&to=2020-01-02T00:00:00Z');
      expect([body.from, body.to]).to.deep.equal(['2020-01-01T00:00:00.000Z', '2020-01-02T00:00:00.000Z']);
      expect(body.data.map((p) => [p.name, p.requests, p.error_rate, p.avg_duration_ms, p.last_error])).to.deep.equal([
        ['flaky', 0, null, null, null],
        ['openai', 0, null, null, null],
      ]);
      await expectError(await gw.fetch('/admin/providers?from=2020-01-02&to=2020-01-01'), 400, { message: "'from' must be before 'to'", type: 'invalid_request_error', code: null, param: 'from' });
      await expectError(await gw.fetch('/admin/providers?window=1h'), 400, { message: "unknown query parameter 'window' (allowed: from, to)", type: 'invalid_request_error', code: null, param: 'window' });
      await expectError(await gw.fetch('/admin/providers', { headers: { authorization: 'Bearer nope' } }), 401, { message: 'invalid credential', type: 'authentication_error', code: 'invalid_api_key', param: null });
    } finally {
      await gw.close();
    }
  });
});
