// API keys end to end: created, used, listed, changed, disabled and deleted through the admin API,
// used through the openai SDK against the local OpenAI mock; each refusal in the error envelope.
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { waitFor } from '../../test/helpers/net.js';
import { withPluginOptions } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';

const MODEL = 'openai/gpt-4o-mini';
const ENV = { TAGGING_HEADER_1: 'x-team', TAGGING_HEADER_1_PREFIX: 'team', TAGGING_HEADER_2: 'x-user', TAGGING_HEADER_2_PREFIX: 'user' };
const VIEW_MEMBERS = ['admin', 'allowed_models', 'budget', 'created_at', 'disabled', 'expires_at', 'id', 'labels', 'name', 'object', 'rate_limit', 'spend', 'updated_at'];

interface View {
  id: string;
  secret?: string;
  [member: string]: unknown;
}

describe('API keys through the admin API and the openai SDK @integration', function () {
  this.timeout(60_000);
  let mock: MockProvider;
  let gw: TestGateway;

  async function admin(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await gw.fetch(path, { method, ...(body !== undefined && { body: JSON.stringify(body) }), ...(key !== undefined && { headers: { authorization: `Bearer ${key}` } }) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  async function create(body: Record<string, unknown>): Promise<View> {
    const { status, json } = await admin('POST', '/admin/keys', body);
    expect(status, JSON.stringify(json)).to.equal(201);
    return json as View;
  }

  function chat(key: string, model = MODEL, headers: Record<string, string> = {}): Promise<OpenAI.ChatCompletion> {
    return gw.client(key).chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] }, { headers });
  }

  /** The error the SDK raised for a refused call. */
  async function refusal(call: Promise<unknown>): Promise<{ status: number; error: unknown }> {
    try {
      await call;
    } catch (err) {
      if (err instanceof OpenAI.APIError) return { status: err.status!, error: err.error };
      throw err;
    }
    throw new Error('the call was not refused');
  }

  before(async () => {
    mock = await startOpenAIMock();
    gw = await startTestGateway({
      config: { plugins: withPluginOptions('router', { virtual_models: { fast: { target: MODEL } } }) },
      env: { ...openAIEnv(mock), ...ENV },
    });
  });
  after(async () => {
    await gw?.close();
    await mock?.close();
  });

  it('creates a key, shows its secret once, and the key calls models', async () => {
    const before = Date.now();
    const key = await create({ name: 'team ml', labels: { team: 'ml' }, budget: { amount_usd: 20, period: 'monthly' }, rate_limit: { rpm: 60 }, allowed_models: ['openai/*'] });
    expect(Object.keys(key).sort()).to.deep.equal([...VIEW_MEMBERS, 'secret'].sort());
    expect(key.secret).to.match(/^sk-sluice-[A-Za-z0-9_-]{43}$/);
    expect(key.id).to.match(/^key_[0-9a-f]{24}$/);
    const { id: _id, created_at: created, updated_at: updated, secret: _s, spend, ...fields } = key;
    expect(fields).to.deep.equal({
      object: 'api_key',
      name: 'team ml',
      labels: { team: 'ml' },
      budget: { amount_usd: 20, period: 'monthly' },
      rate_limit: { rpm: 60, tpm: null, concurrent: null },
      allowed_models: ['openai/*'],
      expires_at: null,
      disabled: false,
      admin: false,
    });
    expect(Date.parse(created as string)).to.be.within(before, Date.now());
    expect(updated).to.equal(created);
    const now = new Date();
    expect(spend).to.deep.equal({ amount_usd: '0', period: 'monthly', from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString() });

    const answer = await chat(key.secret!);
    expect(answer.usage?.total_tokens).to.equal(21);
  });

  it('lists and shows keys without their secret or its hash', async () => {
    const key = await create({ name: 'listed' });
    const list = await admin('GET', '/admin/keys');
    expect(list.status).to.equal(200);
    const data = list.json['data'] as View[];
    const listed = data.find((k) => k.id === key.id)!;
    expect(Object.keys(listed).sort()).to.deep.equal(VIEW_MEMBERS);
    const { secret: _s, ...shown } = key;
    expect(listed).to.deep.equal(shown);
    expect(JSON.stringify(list.json)).not.to.include(key.secret!);
    const one = await admin('GET', `/admin/keys/${key.id}`);
    expect(one).to.deep.equal({ status: 200, json: shown });
  });

  it('changes a key with PATCH, disables and re-enables it, and revokes it with DELETE', async () => {
    const key = await create({ name: 'lifecycle', labels: { team: 'a' } });
    await chat(key.secret!);

    const patched = await admin('PATCH', `/admin/keys/${key.id}`, { name: 'renamed', labels: { team: 'b', env: 'prod' }, budget: { amount_usd: 5, period: 'daily' } });
    expect(patched.status).to.equal(200);
    expect(patched.json).to.deep.include({ id: key.id, name: 'renamed', labels: { team: 'b', env: 'prod' }, budget: { amount_usd: 5, period: 'daily' }, disabled: false });

    expect((await admin('PATCH', `/admin/keys/${key.id}`, { disabled: true })).json['disabled']).to.equal(true);
    expect(await refusal(chat(key.secret!))).to.deep.equal({ status: 403, error: { message: 'this API key is disabled', type: 'permission_error', code: 'key_disabled', param: null } });
    await admin('PATCH', `/admin/keys/${key.id}`, { disabled: false });
    expect((await chat(key.secret!)).usage?.total_tokens).to.equal(21);

    expect(await admin('DELETE', `/admin/keys/${key.id}`)).to.deep.equal({ status: 200, json: { id: key.id, object: 'api_key', deleted: true } });
    expect(await refusal(chat(key.secret!))).to.deep.equal({ status: 401, error: { message: 'invalid credential', type: 'authentication_error', code: 'invalid_api_key', param: null } });
    const gone = { status: 404, json: { error: { message: `no API key with id '${key.id}'`, type: 'not_found_error', code: 'key_not_found', param: 'id' } } };
    expect(await admin('GET', `/admin/keys/${key.id}`)).to.deep.equal(gone);
    expect(await admin('PATCH', `/admin/keys/${key.id}`, { disabled: false })).to.deep.equal(gone);
    expect(await admin('DELETE', `/admin/keys/${key.id}`)).to.deep.equal(gone);
    expect((await admin('GET', '/admin/keys')).json['data'] as View[]).to.satisfy((keys: View[]) => keys.every((k) => k.id !== key.id));
  });

  it('answers 401 for a key nobody created, and the master key keeps working', async () => {
    expect(await refusal(chat('sk-sluice-not-a-key-of-this-gateway'))).to.deep.equal({ status: 401, error: { message: 'invalid credential', type: 'authentication_error', code: 'invalid_api_key', param: null } });
    expect((await chat(gw.masterKey)).usage?.total_tokens).to.equal(21);
  });

  it('refuses a key once its expiry has passed', async () => {
    const expiresAt = new Date(Date.now() + 1500);
    const key = await create({ name: 'short-lived', expires_at: expiresAt.toISOString() });
    expect(key['expires_at']).to.equal(expiresAt.toISOString());
    await chat(key.secret!);
    await sleep(expiresAt.getTime() - Date.now() + 10);
    expect(await refusal(chat(key.secret!))).to.deep.equal({ status: 403, error: { message: `this API key expired at ${expiresAt.toISOString()}`, type: 'permission_error', code: 'key_expired', param: null } });
  });

  it('lets a key call only its allowed models: exact ids, virtual models and provider/*', async () => {
    const exact = await create({ name: 'exact', allowed_models: [MODEL] });
    const virtual = await create({ name: 'virtual', allowed_models: ['fast'] });
    const provider = await create({ name: 'provider', allowed_models: ['openai/*'] });
    const notAllowed = (model: string): unknown => ({ status: 403, error: { message: `this key may not use model '${model}'`, type: 'permission_error', code: 'model_not_allowed', param: null } });

    expect((await chat(exact.secret!, MODEL)).usage?.total_tokens).to.equal(21);
    expect(await refusal(chat(exact.secret!, 'openai/gpt-4o'))).to.deep.equal(notAllowed('openai/gpt-4o'));
    expect(await refusal(chat(exact.secret!, 'fast'))).to.deep.equal(notAllowed('fast'));
    expect((await chat(virtual.secret!, 'fast')).usage?.total_tokens).to.equal(21);
    expect(await refusal(chat(virtual.secret!, MODEL))).to.deep.equal(notAllowed(MODEL));
    expect((await chat(provider.secret!, 'openai/gpt-4o')).usage?.total_tokens).to.equal(21);
    expect(await refusal(chat(provider.secret!, 'fast'))).to.deep.equal(notAllowed('fast'));

    const listed = async (key: View): Promise<string[]> => (await gw.client(key.secret!).models.list()).data.map((m) => m.id).sort();
    expect(await listed(exact)).to.deep.equal([MODEL]);
    expect(await listed(virtual)).to.deep.equal(['fast']);
    expect((await listed(provider)).every((id) => id.startsWith('openai/'))).to.equal(true);
  });

  it("enforces a key's rate limit and budget with the default plugin list, no configuration needed", async () => {
    const limited = await create({ name: 'one a minute', rate_limit: { rpm: 1 } });
    expect((await chat(limited.secret!)).usage?.total_tokens).to.equal(21);
    const second = await refusal(chat(limited.secret!));
    expect([second.status, (second.error as Record<string, unknown>)['type'], (second.error as Record<string, unknown>)['code']]).to.deep.equal([429, 'rate_limit_error', 'rate_limit_exceeded']);

    // A budget admits while any of it is left: the first call spends more than a millionth of a dollar.
    const poor = await create({ name: 'poor', budget: { amount_usd: 0.000001, period: 'total' } });
    expect((await chat(poor.secret!)).usage?.total_tokens).to.equal(21);
    const refused = await refusal(chat(poor.secret!));
    expect([refused.status, (refused.error as Record<string, unknown>)['type'], (refused.error as Record<string, unknown>)['code']]).to.deep.equal([429, 'rate_limit_error', 'budget_exceeded']);
  });

  it('gives /admin/* to keys with admin access only', async () => {
    const plain = await create({ name: 'plain' });
    const operator = await create({ name: 'operator', admin: true });
    expect(await admin('GET', '/admin/keys', undefined, plain.secret)).to.deep.equal({ status: 403, json: { error: { message: 'this route needs an admin credential', type: 'permission_error', code: 'admin_required', param: null } } });
    expect((await admin('POST', '/admin/keys', { name: 'by a plain key' }, plain.secret)).status).to.equal(403);
    expect((await admin('GET', '/admin/usage?group_by=key', undefined, plain.secret)).status).to.equal(403);
    expect((await admin('GET', '/admin/keys', undefined, operator.secret)).status).to.equal(200);
    const made = await admin('POST', '/admin/keys', { name: 'by an admin key' }, operator.secret);
    expect(made.status).to.equal(201);
    expect((await chat(made.json['secret'] as string)).usage?.total_tokens).to.equal(21);
  });

  it('answers bad admin input with a 400 naming the member', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{}, 'name', 'invalid_value'],
      [{ name: '' }, 'name', 'invalid_value'],
      [{ name: 'x', labels: { 'bad name': 'v' } }, 'labels.bad name', 'invalid_value'],
      [{ name: 'x', labels: { team: 7 } }, 'labels.team', 'invalid_value'],
      [{ name: 'x', budget: { amount_usd: 0, period: 'monthly' } }, 'budget.amount_usd', 'invalid_value'],
      [{ name: 'x', budget: { amount_usd: 5, period: 'yearly' } }, 'budget.period', 'invalid_value'],
      [{ name: 'x', rate_limit: { rpm: 1.5 } }, 'rate_limit.rpm', 'invalid_value'],
      [{ name: 'x', rate_limit: { rps: 1 } }, 'rate_limit.rps', 'unknown_parameter'],
      [{ name: 'x', allowed_models: ['openai/*', 'open*ai'] }, 'allowed_models[1]', 'invalid_value'],
      [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at', 'invalid_value'],
      [{ name: 'x', expires_at: '2027-02-30T00:00:00Z' }, 'expires_at', 'invalid_value'],
      [{ name: 'x', disabled: 'yes' }, 'disabled', 'invalid_value'],
      [{ name: 'x', colour: 'red' }, 'colour', 'unknown_parameter'],
      [{ name: 'x', secret: 'sk-sluice-mine' }, 'secret', 'read_only_parameter'],
    ];
    for (const [body, param, code] of cases) {
      const { status, json } = await admin('POST', '/admin/keys', body);
      const error = json['error'] as Record<string, unknown>;
      expect({ status, type: error['type'], param: error['param'], code: error['code'] }, JSON.stringify(body)).to.deep.equal({ status: 400, type: 'invalid_request_error', param, code });
    }
    const key = await create({ name: 'patched badly' });
    const patch = await admin('PATCH', `/admin/keys/${key.id}`, { admin: 1 });
    expect(patch.status).to.equal(400);
    expect((patch.json['error'] as Record<string, unknown>)['param']).to.equal('admin');
    const notJson = await gw.fetch('/admin/keys', { method: 'POST', body: '{"name":' });
    expect(notJson.status).to.equal(400);
    expect(((await notJson.json()) as { error: { code: string } }).error.code).to.equal('invalid_json');
  });

  it("records a key's labels with the header labels, and usage by key and by label counts them", async () => {
    const key = await create({ name: 'attributed', labels: { team: 'research' } });
    // The key's team wins over the header's; the user header still counts.
    const res = await gw.client(key.secret!).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'label me' }] }, { headers: { 'x-team': 'web', 'x-user': 'alice' } }).withResponse();
    const requestId = res.response.headers.get('x-request-id')!;
    let entry: Record<string, unknown> | null = null;
    await waitFor(async () => {
      const r = await gw.fetch(`/admin/audit/${requestId}`);
      entry = r.status === 200 ? ((await r.json()) as Record<string, unknown>) : null;
      return entry !== null;
    }, 10_000, 'the audit entry');
    expect(entry!['labels']).to.deep.equal({ user: 'alice', team: 'research' });
    expect(entry!['key_id']).to.equal(key.id);
    expect(entry!['key_name']).to.equal('attributed');

    const byKey = (await admin('GET', '/admin/usage?group_by=key')).json['data'] as Array<Record<string, unknown>>;
    const row = byKey.find((r) => r['value'] === key.id)!;
    expect(row).to.deep.include({ requests: 1, input_tokens: 17, output_tokens: 4, total_tokens: 21 });
    expect(Number(row['cost_usd'])).to.be.greaterThan(0);
    const byTeam = (await admin('GET', '/admin/usage?group_by=label:team')).json['data'] as Array<Record<string, unknown>>;
    expect(byTeam.find((r) => r['value'] === 'research')).to.deep.include({ requests: 1, total_tokens: 21, cost_usd: row['cost_usd'] });
    expect(byTeam.find((r) => r['value'] === 'web')).to.equal(undefined);
    const shown = await admin('GET', `/admin/keys/${key.id}`);
    expect(shown.json['spend']).to.deep.equal({ amount_usd: row['cost_usd'], period: 'total', from: shown.json['created_at'] });
  });
});
