// The audit plugin on PostgreSQL end to end: the same calls through the openai SDK to a gateway
// on SQLite and to one on PostgreSQL give the same admin answers; two gateways sharing one
// schema see each other's entries and add their usage up.
import { expect } from 'chai';
import { withPluginOptions } from '../../../../test/helpers/plugins.js';
import { openAIEnv, startOpenAIMock } from '../../../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../../../test/helpers/mock-provider.js';
import { dropSchema, scratchSchema, TEST_DATABASE_URL } from '../../../../test/helpers/postgres.js';
import { startTestGateway } from '../../../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../../../test/helpers/start-gateway.js';

const TAGGING_ENV = { TAGGING_HEADER_1: 'x-team', TAGGING_HEADER_1_PREFIX: 'team' };

function startOn(mock: MockProvider, store: Record<string, unknown>): Promise<TestGateway> {
  return startTestGateway({ config: { plugins: withPluginOptions('audit', { store }) }, env: { ...openAIEnv(mock), ...TAGGING_ENV } });
}

async function getJson(gw: TestGateway, path: string): Promise<unknown> {
  const res = await gw.fetch(path);
  expect(res.status, `${path}: ${await res.clone().text()}`).to.equal(200);
  return res.json();
}

// What differs between two runs of the same calls: ids, clocks (a cursor holds one), the port.
const RUN_SPECIFIC = new Set(['id', 'time', 'ts', 'duration_ms', 'ttfb_ms', 'queued_ms', 'host', 'from', 'to', 'next_cursor']);

function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !RUN_SPECIFIC.has(k)).map(([k, v]) => [k, comparable(v)]));
}

describe('audit log on PostgreSQL through the openai SDK @integration', function () {
  this.timeout(60_000);
  let mock: MockProvider;
  let sqlite: TestGateway;
  let postgres: TestGateway;
  const schema = scratchSchema();
  /** Each gateway's request ids, in the order sent. */
  const sent = new Map<TestGateway, string[]>();

  async function callAll(gw: TestGateway): Promise<void> {
    const client = gw.client();
    const ids: string[] = [];
    const chat = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there, gateway!' }] }, { headers: { 'x-team': 'ml' } }).withResponse();
    ids.push(chat.response.headers.get('x-request-id')!);
    const stream = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Stream me' }] }).withResponse();
    for await (const _ of stream.data);
    ids.push(stream.response.headers.get('x-request-id')!);
    const embeddings = await client.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'embed this text' }, { headers: { 'x-team': 'data' } }).withResponse();
    ids.push(embeddings.response.headers.get('x-request-id')!);
    const unknown = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'nobody/model', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(unknown.status).to.equal(404);
    ids.push(unknown.headers.get('x-request-id')!);
    sent.set(gw, ids);
  }

  before(async () => {
    mock = await startOpenAIMock();
    sqlite = await startOn(mock, { type: 'sqlite' });
    postgres = await startOn(mock, { type: 'postgres', url: TEST_DATABASE_URL, schema });
    await callAll(sqlite);
    await callAll(postgres);
    // Then the provider fails: its 503 reaches the client as a 502, recorded with its error.
    mock.on('POST', '/v1/chat/completions', (_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: null, param: null } }));
    });
    for (const gw of [sqlite, postgres]) {
      const failed = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'fail' }] }) });
      expect(failed.status).to.equal(502);
      sent.get(gw)!.push(failed.headers.get('x-request-id')!);
    }
  });
  after(async () => {
    await sqlite?.close();
    await postgres?.close();
    await mock?.close();
    await dropSchema(schema);
  });

  it('lists the same entries, newest first, as the SQLite store', async () => {
    const listed = (await getJson(postgres, '/admin/audit?limit=500')) as { data: Array<{ id: string }> };
    expect(listed.data.map((e) => e.id)).to.deep.equal([...sent.get(postgres)!].reverse());
    expect(comparable(listed)).to.deep.equal(comparable(await getJson(sqlite, '/admin/audit?limit=500')));
  });

  it('gives each whole entry as the SQLite store does', async () => {
    const pg = sent.get(postgres)!;
    const lite = sent.get(sqlite)!;
    for (let i = 0; i < pg.length; i++) {
      const entry = (await getJson(postgres, `/admin/audit/${pg[i]!}`)) as { id: string; status: number };
      expect(entry.id).to.equal(pg[i]);
      expect(comparable(entry), `call ${i}`).to.deep.equal(comparable(await getJson(sqlite, `/admin/audit/${lite[i]!}`)));
    }
    const failed = (await getJson(postgres, `/admin/audit/${pg[4]!}`)) as { status: number; error: { provider: string } };
    expect([failed.status, failed.error.provider]).to.deep.equal([502, 'openai']);
  });

  it('filters, searches, pages and sums usage as the SQLite store does', async () => {
    const queries = [
      '/admin/audit?status=error',
      '/admin/audit?label=team:ml',
      `/admin/audit?q=${encodeURIComponent('THERE, gateway')}`,
      '/admin/audit?model=openai/gpt-4o-mini&limit=2',
      '/admin/usage?group_by=model',
      '/admin/usage?group_by=key',
      '/admin/usage?group_by=provider',
      '/admin/usage?group_by=label:team',
    ];
    const position = (gw: TestGateway, body: unknown): unknown => JSON.parse(JSON.stringify(body, (k, v: unknown) => (k === 'id' ? sent.get(gw)!.indexOf(v as string) : v)));
    for (const path of queries) {
      const [pg, lite] = [await getJson(postgres, path), await getJson(sqlite, path)];
      expect(comparable(position(postgres, pg)), path).to.deep.equal(comparable(position(sqlite, lite)));
      expect(JSON.stringify(pg), path).to.not.equal('{"object":"list","data":[]}');
    }
    const next = (await getJson(postgres, '/admin/audit?model=openai/gpt-4o-mini&limit=2')) as { next_cursor: string };
    const rest = (await getJson(postgres, `/admin/audit?model=openai/gpt-4o-mini&limit=2&cursor=${next.next_cursor}`)) as { data: Array<{ id: string }>; next_cursor: null };
    expect(rest.data.map((e) => sent.get(postgres)!.indexOf(e.id))).to.deep.equal([0]);
  });
});

describe('two gateways on one PostgreSQL schema @integration', function () {
  this.timeout(60_000);

  it('each lists the entries of both, and usage adds them up', async () => {
    const mock = await startOpenAIMock();
    const schema = scratchSchema();
    const store = { type: 'postgres', url: TEST_DATABASE_URL, schema };
    const starts = await Promise.allSettled([startOn(mock, store), startOn(mock, store)]);
    const gateways = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      for (const s of starts) if (s.status === 'rejected') throw s.reason;
      const ids = await Promise.all(
        gateways.flatMap((gw) =>
          Array.from({ length: 10 }, async () => {
            const chat = await gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
            return chat.response.headers.get('x-request-id')!;
          }),
        ),
      );
      // A gateway's read stores its own writer's queue first; the other's entries arrive within
      // that one's flush interval, so each is read once before the cross reads.
      for (const gw of gateways) await getJson(gw, '/admin/audit?limit=1');
      const one = (await getJson(gateways[1]!, '/admin/audit?limit=500')) as { data: Array<{ id: string; total_tokens: number }> };
      expect(one.data.map((e) => e.id).sort()).to.deep.equal([...ids].sort());
      const usage = (await getJson(gateways[0]!, '/admin/usage?group_by=model')) as { data: Array<{ value: string; requests: number; total_tokens: number }> };
      expect(usage.data.map((r) => [r.value, r.requests, r.total_tokens])).to.deep.equal([['openai/gpt-4o-mini', 20, one.data.reduce((n, e) => n + e.total_tokens, 0)]]);
      expect(one.data[0]!.total_tokens).to.be.greaterThan(0);
    } finally {
      await Promise.all(gateways.map((gw) => gw.close()));
      await mock.close();
      await dropSchema(schema);
    }
  });
});

describe('choosing the PostgreSQL store @integration', () => {
  it('refuses to start without a URL in store.url or DATABASE_URL, saying so', async () => {
    try {
      await startTestGateway({ config: { plugins: withPluginOptions('audit', { store: { type: 'postgres' } }) }, env: {} });
      expect.fail('started without a database URL');
    } catch (err) {
      expect(String(err)).to.match(/plugins\[\d+\] \(audit\): setup failed: store\.type is postgres but neither store\.url nor DATABASE_URL is set$/);
    }
  });

  it('takes the URL from DATABASE_URL', async () => {
    const schema = scratchSchema();
    const gw = await startTestGateway({ config: { plugins: withPluginOptions('audit', { store: { type: 'postgres', schema } }) }, env: { DATABASE_URL: TEST_DATABASE_URL } });
    try {
      const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] }) });
      const listed = (await getJson(gw, '/admin/audit')) as { data: Array<{ id: string }> };
      expect(listed.data.map((e) => e.id)).to.deep.equal([res.headers.get('x-request-id')]);
    } finally {
      await gw.close();
      await dropSchema(schema);
    }
  });
});
