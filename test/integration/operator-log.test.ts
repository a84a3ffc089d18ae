// The operator log of a running gateway, as JSON lines: the startup summary, the access log
// (written after the response, with each request's id), a failure with its request id, and not
// one credential in any of it: not the master key, not a provider's key, not a client's bearer.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { loadConfig, mergeConfig } from '../../core/config.js';
import { operatorLogger } from '../../core/operator-logger.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { OPENAI_KEY, openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { MASTER_KEY, startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { SCRIPTED_FEATURES_ENTRY } from '../helpers/scripted-features.test-plugin.js';
import { AUDIT_ON_POSTGRES } from '../helpers/postgres.js';

interface LogRecord {
  level: string;
  message: string;
  [field: string]: unknown;
}

const WRONG_BEARER = 'sk-client-wrong-key-987654';

describe('operator log @integration', () => {
  let mock: MockProvider;
  let gw: TestGateway;
  const lines: string[] = [];
  const records = (): LogRecord[] => lines.map((l) => JSON.parse(l) as LogRecord);

  before(async () => {
    mock = await startOpenAIMock();
    // A provider that quotes the credential it was sent back in its error, as some do.
    mock.on('POST', '/v1/embeddings', (req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}`, type: 'invalid_request_error' } }));
    });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
        done();
      },
    });
    const env = openAIEnv(mock);
    const config = { log: { level: 'debug', format: 'json', access: true }, plugins: [...defaultPlugins(), SCRIPTED_FEATURES_ENTRY] };
    // The logger a real start builds from the config (startTestGateway merges the same base).
    const loaded = loadConfig({ overrides: mergeConfig({ master_key: MASTER_KEY }, config) as Record<string, unknown>, env });
    gw = await startTestGateway({ env, config, logger: operatorLogger(loaded, stream) });
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });

  it('prints the startup summary, one JSON line per topic', () => {
    const startup = records().filter((r) => r['startup'] !== undefined);
    expect(startup.map((r) => r['startup'])).to.include.members(['listening', 'providers', 'plugins', 'data dir', 'store']);
    const byTopic = Object.fromEntries(startup.map((r) => [r['startup'], r.message]));
    expect(byTopic['listening']).to.match(/^sluice listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(byTopic['plugins']).to.equal('plugins: auth, tagging, validate, router, passthrough, responses-adapter, provider-openai, provider-openai-compatible, provider-azure, provider-anthropic, provider-gemini, provider-demo, pricing, audit, keys, ratelimit, budget, dashboard, scripted-features');
    expect(byTopic['data dir']).to.equal(`data dir: ${gw.dataDir}`);
    // SLUICE_TEST_STORE=postgres runs the suite with the audit log in a scratch schema.
    if (AUDIT_ON_POSTGRES) expect(byTopic['store']).to.match(/^store: postgres, schema sluice_test_[0-9a-f]+$/);
    else expect(byTopic['store']).to.equal(`store: sqlite ${gw.dataDir}/sluice.db`);
  });

  it('logs each finished request once, after its response, with its id and no credential', async () => {
    const { response } = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
    const id = response.headers.get('x-request-id')!;
    const denied = await gw.fetch('/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${WRONG_BEARER}` }, body: '{}' });
    expect(denied.status).to.equal(401);
    const echoed = await gw.fetch('/v1/embeddings', { method: 'POST', body: JSON.stringify({ model: 'openai/text-embedding-3-small', input: 'hi' }) });
    expect(echoed.status).to.equal(401);
    await new Promise((resolve) => setImmediate(resolve));
    const access = records().filter((r) => r['access'] === true);
    const chat = access.find((r) => r['request_id'] === id)!;
    expect(chat).to.include({ level: 'info', message: `POST /v1/chat/completions 200 ${String(chat['duration_ms'])}ms`, status: 200, provider: 'openai', model: 'openai/gpt-4o-mini', key_id: 'master', input_tokens: 17, output_tokens: 4, cost_usd: '0.00000495', stream: false });
    expect(access.map((r) => r['status'])).to.deep.equal([200, 401, 401]);
  });

  it('a failure is logged with its request id, and a credential it quotes is scrubbed', async () => {
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', headers: { 'x-test-crash': `upstream key ${OPENAI_KEY}` }, body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(res.status).to.equal(500);
    const id = res.headers.get('x-request-id')!;
    const failure = records().find((r) => r.level === 'error' && r['request_id'] === id)!;
    expect(failure.message).to.match(new RegExp(`^request ${id} failed: Error: scripted crash: upstream key \\[redacted\\]`));
  });

  it('no credential appears in any line', () => {
    const text = lines.join('\n');
    for (const secret of [MASTER_KEY, OPENAI_KEY, WRONG_BEARER]) expect(text).not.to.contain(secret);
  });
});
