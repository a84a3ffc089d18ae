// The audit log end to end: the official openai SDK against the offline demo provider, then the
// admin endpoints. Demo usage follows plugins/provider-demo/tokens.ts (about four characters a
// token, 4 tokens of framing per message and 3 per prompt); demo/echo costs $0.15 per million
// input tokens and $0.60 per million output tokens, i.e. 150,000 and 600,000 picodollars a token.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError } from '../../test/helpers/errors.js';
import { withPluginOptions } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import type { AuditSummary } from './audit-entry.js';
import type { AuditEntryView } from './routes/routes.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import { AUDIT_ON_POSTGRES } from '../../test/helpers/postgres.js';

interface ListBody {
  object: string;
  data: AuditSummary[];
  next_cursor: string | null;
}

interface UsageBody {
  object: string;
  group_by: string;
  from: string;
  to: string;
  data: Array<{ value: string | null; requests: number; input_tokens: number; output_tokens: number; total_tokens: number; cost_usd: string; unpriced_requests: number; cache_hits: number }>;
}

const DEMO_CONFIG = { providers: { demo: { stream_delay_ms: 0 } } };
const TAGGING_ENV = { TAGGING_HEADER_1: 'x-team', TAGGING_HEADER_1_PREFIX: 'team' };

describe('audit log through the openai SDK @integration', () => {
  let gw: TestGateway;
  const ids: Record<'chat' | 'stream' | 'embeddings' | 'unknownModel' | 'invalid', string> = { chat: '', stream: '', embeddings: '', unknownModel: '', invalid: '' };
  let streamedText = '';

  async function getJson<T>(path: string): Promise<T> {
    const res = await gw.fetch(path);
    expect(res.status, await res.clone().text()).to.equal(200);
    return (await res.json()) as T;
  }

  before(async () => {
    gw = await startTestGateway({ config: DEMO_CONFIG, env: TAGGING_ENV });
    const client = gw.client();

    // 'Hello there, gateway!' is 21 characters: 5 tokens. Prompt 3 + 4 + 5 = 12.
    const chat = await client.chat.completions
      .create({ model: 'demo/echo', messages: [{ role: 'user', content: 'Hello there, gateway!' }] }, { headers: { 'x-team': 'ml' } })
      .withResponse();
    ids.chat = chat.response.headers.get('x-request-id')!;

    // 'Stream me, please' is 17 characters: 4 tokens. Prompt 3 + 4 + 4 = 11.
    const stream = await client.chat.completions.create({ model: 'demo/echo', stream: true, messages: [{ role: 'user', content: 'Stream me, please' }] }).withResponse();
    for await (const chunk of stream.data) streamedText += chunk.choices[0]?.delta.content ?? '';
    ids.stream = stream.response.headers.get('x-request-id')!;

    // 'embed this text' is 15 characters: 4 tokens.
    const embeddings = await client.embeddings.create({ model: 'demo/echo', input: 'embed this text' }, { headers: { 'x-team': 'data' } }).withResponse();
    ids.embeddings = embeddings.response.headers.get('x-request-id')!;

    const unknown = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'nobody/model', messages: [{ role: 'user', content: 'hi' }] }) });
    expect(unknown.status).to.equal(404);
    ids.unknownModel = unknown.headers.get('x-request-id')!;

    const invalid = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'demo/echo' }) });
    expect(invalid.status).to.equal(400);
    ids.invalid = invalid.headers.get('x-request-id')!;
  });
  after(() => gw.close());

  it('records exactly one entry per request, newest first', async () => {
    const list = await getJson<ListBody>('/admin/audit');
    expect(list.object).to.equal('list');
    expect(list.next_cursor).to.equal(null);
    expect(list.data.map((e) => e.id)).to.deep.equal([ids.invalid, ids.unknownModel, ids.embeddings, ids.stream, ids.chat]);
    expect(list.data[0]).to.not.have.any.keys('request_body', 'response_body', 'request_headers');
  });

  it('a chat call: status, tokens, exact cost, labels, bodies, redacted credentials', async () => {
    const e = await getJson<AuditEntryView>(`/admin/audit/${ids.chat}`);
    expect(e).to.deep.include({
      id: ids.chat,
      method: 'POST',
      route: '/v1/chat/completions',
      operation: 'chat',
      model: 'demo/echo',
      resolved_model: 'demo/echo',
      provider_model: 'echo',
      provider: 'demo',
      status: 200,
      stream: false,
      key_id: 'master',
      key_name: 'master',
      client_ip: '127.0.0.1',
      input_tokens: 12,
      output_tokens: 5,
      total_tokens: 17,
      // 12 x 150,000 + 5 x 600,000 = 4,800,000 picodollars.
      cost_usd: '0.0000048',
      cost_pico: 4_800_000,
      cost_source: 'computed',
      cache_hit: false,
      error: null,
      request_body_truncated: false,
      response_body_truncated: false,
    });
    expect(e.labels).to.deep.equal({ team: 'ml' });
    expect(e.time).to.equal(new Date(e.ts).toISOString());
    expect(e.duration_ms).to.be.a('number').and.at.least(0);
    expect(e.ttfb_ms).to.be.a('number').and.at.least(0);
    expect(e.request_headers['authorization']).to.equal('[redacted]');
    expect(e.request_headers['x-team']).to.equal('ml');
    expect(e.request_body).to.deep.equal({ model: 'demo/echo', messages: [{ role: 'user', content: 'Hello there, gateway!' }] });
    const response = e.response_body as { object: string; choices: Array<{ message: { content: string } }> };
    expect(response.object).to.equal('chat.completion');
    expect(response.choices[0]!.message.content).to.equal('Hello there, gateway!');
    expect(e.usage).to.deep.include({ input_tokens: 12, output_tokens: 5, total_tokens: 17 });
    expect(e.cost).to.deep.include({ total_usd: '0.0000048', pico_usd: '4800000', source: 'computed' });
    expect(e.attempts).to.have.length(1);
    expect(e.attempts[0]).to.deep.include({ provider: 'demo', model: 'echo', status: 200, error: null });
  });

  it('a streamed call: the response body is the reassembled completion', async () => {
    const e = await getJson<AuditEntryView>(`/admin/audit/${ids.stream}`);
    expect(e).to.deep.include({ status: 200, stream: true, input_tokens: 11, output_tokens: 4, total_tokens: 15, cost_usd: '0.00000405', cost_pico: 4_050_000, labels: {} });
    expect(streamedText).to.equal('Stream me, please');
    const body = e.response_body as { object: string; choices: Array<{ message: { content: string } }> };
    expect(body.object).to.equal('chat.completion');
    expect(body.choices[0]!.message.content).to.equal(streamedText);
    expect((e.request_body as { stream: boolean }).stream).to.equal(true);
  });

  it('an embeddings call: input tokens only', async () => {
    const e = await getJson<AuditEntryView>(`/admin/audit/${ids.embeddings}`);
    // 4 x 150,000 = 600,000 picodollars.
    expect(e).to.deep.include({ operation: 'embeddings', route: '/v1/embeddings', status: 200, input_tokens: 4, output_tokens: 0, total_tokens: 4, cost_usd: '0.0000006', cost_pico: 600_000 });
    expect(e.labels).to.deep.equal({ team: 'data' });
    expect((e.response_body as { object: string }).object).to.equal('list');
  });

  it('failed calls: the error, no provider, no cost', async () => {
    const unknown = await getJson<AuditEntryView>(`/admin/audit/${ids.unknownModel}`);
    expect(unknown).to.deep.include({ status: 404, model: 'nobody/model', resolved_model: null, provider: null, input_tokens: 0, cost_usd: null, cost_pico: null, attempts: [] });
    expect(unknown.error).to.deep.equal({ type: 'not_found_error', code: 'model_not_found', message: "model 'nobody/model' does not exist or is not served by this gateway", status: 404, provider: null });
    expect(unknown.response_body).to.deep.equal({ error: { message: "model 'nobody/model' does not exist or is not served by this gateway", type: 'not_found_error', code: 'model_not_found', param: 'model' } });

    const invalid = await getJson<AuditEntryView>(`/admin/audit/${ids.invalid}`);
    expect(invalid).to.deep.include({ status: 400, model: 'demo/echo', provider: null, cost_usd: null });
    expect(invalid.error).to.deep.include({ type: 'invalid_request_error', status: 400 });
    expect(invalid.request_body).to.deep.equal({ model: 'demo/echo' });
  });

  it('usage by model equals the sum of the audit rows', async () => {
    const usage = await getJson<UsageBody>('/admin/usage?group_by=model');
    expect(usage.object).to.equal('list');
    expect(usage.group_by).to.equal('model');
    expect(Date.parse(usage.to) - Date.parse(usage.from)).to.equal(30 * 86_400_000);
    expect(usage.data).to.deep.equal([
      // 4,800,000 + 4,050,000 + 600,000 picodollars; the 400 was asked for demo/echo and cost nothing.
      { value: 'demo/echo', requests: 4, input_tokens: 27, output_tokens: 9, total_tokens: 36, cost_usd: '0.00000945', unpriced_requests: 0, cache_hits: 0 },
      { value: 'nobody/model', requests: 1, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_usd: '0', unpriced_requests: 0, cache_hits: 0 },
    ]);
    const rows = (await getJson<ListBody>('/admin/audit?limit=500')).data;
    const echo = rows.filter((r) => (r.resolved_model ?? r.model) === 'demo/echo');
    expect(echo.reduce((n, r) => n + r.total_tokens, 0)).to.equal(36);
    expect(echo.reduce((n, r) => n + (r.cost_pico ?? 0), 0)).to.equal(9_450_000);
  });

  it('usage by label: each value, and the calls without the label under null', async () => {
    const usage = await getJson<UsageBody>('/admin/usage?group_by=label:team');
    expect(usage.data).to.deep.equal([
      { value: 'ml', requests: 1, input_tokens: 12, output_tokens: 5, total_tokens: 17, cost_usd: '0.0000048', unpriced_requests: 0, cache_hits: 0 },
      { value: null, requests: 3, input_tokens: 11, output_tokens: 4, total_tokens: 15, cost_usd: '0.00000405', unpriced_requests: 0, cache_hits: 0 },
      { value: 'data', requests: 1, input_tokens: 4, output_tokens: 0, total_tokens: 4, cost_usd: '0.0000006', unpriced_requests: 0, cache_hits: 0 },
    ]);
  });

  it('filters, searches and pages through the admin API', async () => {
    const errors = await getJson<ListBody>('/admin/audit?status=4xx');
    expect(errors.data.map((e) => e.id)).to.deep.equal([ids.invalid, ids.unknownModel]);
    const team = await getJson<ListBody>('/admin/audit?label=team:ml');
    expect(team.data.map((e) => e.id)).to.deep.equal([ids.chat]);
    const search = await getJson<ListBody>(`/admin/audit?q=${encodeURIComponent('there, gateway')}`);
    expect(search.data.map((e) => e.id)).to.deep.equal([ids.chat]);
    const first = await getJson<ListBody>('/admin/audit?limit=2&provider=demo');
    expect(first.data.map((e) => e.id)).to.deep.equal([ids.embeddings, ids.stream]);
    const second = await getJson<ListBody>(`/admin/audit?limit=2&provider=demo&cursor=${first.next_cursor!}`);
    expect(second.data.map((e) => e.id)).to.deep.equal([ids.chat]);
    expect(second.next_cursor).to.equal(null);
  });

  it('answers invalid parameters with a 400 naming them, and unknown ids with a 404', async () => {
    await expectError(await gw.fetch('/admin/audit?limit=0'), 400, { message: "'limit' must be an integer from 1 to 500", type: 'invalid_request_error', code: null, param: 'limit' });
    await expectError(await gw.fetch('/admin/audit?status=teapot'), 400, {
      message: "'status' must be a status code (404), a class (4xx, 5xx) or 'error'",
      type: 'invalid_request_error',
      code: null,
      param: 'status',
    });
    await expectError(await gw.fetch('/admin/usage'), 400, { message: "'group_by' must be one of key, model, provider, label:<name>", type: 'invalid_request_error', code: null, param: 'group_by' });
    await expectError(await gw.fetch('/admin/usage?group_by=team'), 400, { message: "'group_by' must be one of key, model, provider, label:<name>", type: 'invalid_request_error', code: null, param: 'group_by' });
    await expectError(await gw.fetch('/admin/audit/not-an-id'), 404, {
      message: "no audit entry with id 'not-an-id' (unknown, or purged by retention)",
      type: 'not_found_error',
      code: 'audit_entry_not_found',
      param: 'id',
    });
    // An id of the gateway's own form, of a millisecond that holds entries, but not one of them.
    const known = ids.chat;
    const unknown = `${known.slice(0, 24)}${known[24] === '0' ? '1' : '0'}${known.slice(25)}`;
    await expectError(await gw.fetch(`/admin/audit/${unknown}`), 404, {
      message: `no audit entry with id '${unknown}' (unknown, or purged by retention)`,
      type: 'not_found_error',
      code: 'audit_entry_not_found',
      param: 'id',
    });
  });

  it('is closed to callers without a credential', async () => {
    for (const path of ['/admin/audit', `/admin/audit/${ids.chat}`, '/admin/usage?group_by=model']) {
      const res = await fetch(gw.url + path);
      expect(res.status).to.equal(401);
      expect(((await res.json()) as { error: { type: string } }).error.type).to.equal('authentication_error');
    }
  });
});

describe('usage per hour through the admin API @integration', function () {
  this.timeout(30_000);
  const HOUR = 3_600_000;
  const MINUTE = 60_000;
  let gw: TestGateway;
  // The UTC hour the calls are made in.
  let hour = 0;

  const iso = (ms: number): string => new Date(ms).toISOString();
  const zero = (bucket: number): Record<string, unknown> => ({ bucket: iso(bucket), value: null, requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_usd: '0', unpriced_requests: 0, cache_hits: 0 });

  before(async () => {
    gw = await startTestGateway({ config: DEMO_CONFIG, env: TAGGING_ENV });
    // Calls a few seconds before an hour's end could fall on either side: make them after it.
    const left = HOUR - (Date.now() % HOUR);
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 10));
    hour = Math.floor(Date.now() / HOUR) * HOUR;
    // 12 input and 5 output tokens (above): 4,800,000 picodollars.
    await gw.client().chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'Hello there, gateway!' }] }, { headers: { 'x-team': 'ml' } });
    // 11 and 4: 4,050,000.
    await gw.client().chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'Stream me, please' }] });
  });
  after(() => gw.close());

  it('lists every hour of the window without group_by, zeros included, the calls in their hour', async () => {
    // The window starts and ends inside an hour: five buckets, the first and last partial.
    const from = hour - 90 * MINUTE;
    const to = hour + 2 * HOUR + 15 * MINUTE;
    const res = await gw.fetch(`/admin/usage?bucket=hour&from=${iso(from)}&to=${iso(to)}`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({
      object: 'list',
      group_by: null,
      bucket: 'hour',
      from: iso(from),
      to: iso(to),
      data: [
        zero(hour - 2 * HOUR),
        zero(hour - HOUR),
        { bucket: iso(hour), value: null, requests: 2, input_tokens: 23, output_tokens: 9, total_tokens: 32, cost_usd: '0.00000885', unpriced_requests: 0, cache_hits: 0 },
        zero(hour + HOUR),
        zero(hour + 2 * HOUR),
      ],
    });
  });

  it('splits a grouping per bucket, listing only the values that had calls', async () => {
    const res = await gw.fetch(`/admin/usage?group_by=label:team&bucket=hour&from=${iso(hour - HOUR)}&to=${iso(hour + HOUR)}`);
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { data: unknown[] }).data).to.deep.equal([
      { bucket: iso(hour), value: 'ml', requests: 1, input_tokens: 12, output_tokens: 5, total_tokens: 17, cost_usd: '0.0000048', unpriced_requests: 0, cache_hits: 0 },
      { bucket: iso(hour), value: null, requests: 1, input_tokens: 11, output_tokens: 4, total_tokens: 15, cost_usd: '0.00000405', unpriced_requests: 0, cache_hits: 0 },
    ]);
  });

  it('refuses an unknown bucket and more than 1000 buckets with a 400 naming bucket', async () => {
    await expectError(await gw.fetch('/admin/usage?bucket=week'), 400, { message: "'bucket' must be hour or day", type: 'invalid_request_error', code: null, param: 'bucket' });
    await expectError(await gw.fetch('/admin/usage?bucket=hour&from=2026-01-01&to=2026-03-01'), 400, {
      message: "'bucket=hour' splits this window into 1416 buckets; at most 1000 per call: narrow 'from' and 'to', or use bucket=day",
      type: 'invalid_request_error',
      code: null,
      param: 'bucket',
    });
    await expectError(await gw.fetch('/admin/usage?bucket=day&group_by=team'), 400, { message: "'group_by' must be one of key, model, provider, label:<name>", type: 'invalid_request_error', code: null, param: 'group_by' });
  });
});

// It reads the SQLite file the gateway left; on PostgreSQL the store suite holds the same.
(AUDIT_ON_POSTGRES ? describe.skip : describe)('audit log across a restart @integration', () => {
  it('close() writes the entries of the last requests before it returns', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-audit-restart-'));
    try {
      // A timer that never fires in this test: only close() can have written them.
      const plugins = withPluginOptions('audit', { flush_interval_ms: 60_000 });
      const gw = await startTestGateway({ config: { ...DEMO_CONFIG, plugins }, dataDir });
      const sent: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: `last words ${i}` }] }) });
        expect(res.status).to.equal(200);
        sent.push(res.headers.get('x-request-id')!);
      }
      await gw.close();
      const store = new SqliteStore(join(dataDir, 'sluice.db'));
      try {
        expect((await store.audit.query({}, null, 10)).data.map((e) => e.id)).to.deep.equal(sent.reverse());
        expect((await store.audit.get(sent[0]!))?.status).to.equal(200);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
