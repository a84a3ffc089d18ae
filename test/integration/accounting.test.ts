// Issue 4's acceptance scenario end to end: Open WebUI-style user headers (the e-mail marked
// DONOTPASS) through the openai SDK and a passthrough call, against the OpenAI mock serving
// recorded payloads; then the audit log and usage by label, checked to the picodollar.
//
// Catalog prices: gpt-4o-mini $0.15 / $0.60 per million tokens (150,000 / 600,000 picodollars a
// token); text-embedding-3-small $0.02 (20,000). The recorded completion uses 17 prompt and 4
// completion tokens: 17 x 150,000 + 4 x 600,000 = 4,950,000 picodollars = $0.00000495. The mock's
// embeddings report 5 tokens per input: 5 x 20,000 = 100,000 = $0.0000001.
import { expect } from 'chai';
import OpenAI from 'openai';
import type { MockProvider } from '../helpers/mock-provider.js';
import { OPENAI_KEY, openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { MASTER_KEY, startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

interface Entry {
  id: string;
  route: string;
  status: number;
  stream: boolean;
  labels: Record<string, string>;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd: string | null;
  cost_pico: number | null;
  request_body: unknown;
  response_body: unknown;
}

interface UsageRow {
  value: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd: string;
}

const USER_HEADERS = {
  ann: { 'X-OpenWebUI-User-Id': 'u-ann', 'X-OpenWebUI-User-Email': 'ann%40example.com', 'X-OpenWebUI-User-Name': 'Ann%20M%C3%BCller' },
  bob: { 'X-OpenWebUI-User-Id': 'u-bob', 'X-OpenWebUI-User-Email': 'bob@example.com', 'X-OpenWebUI-User-Name': 'Bob' },
};

describe('accounting: labels, passthrough, audit, exact cost, usage by label @integration', () => {
  let mock: MockProvider;
  let gw: TestGateway;
  const ids: string[] = [];
  let streamed = '';

  const client = (user: keyof typeof USER_HEADERS): OpenAI =>
    new OpenAI({ baseURL: gw.baseURL, apiKey: MASTER_KEY, maxRetries: 0, defaultHeaders: USER_HEADERS[user] });

  async function json<T>(path: string): Promise<T> {
    const res = await gw.fetch(path);
    expect(res.status, path).to.equal(200);
    return (await res.json()) as T;
  }

  before(async () => {
    mock = await startOpenAIMock();
    gw = await startTestGateway({
      env: {
        ...openAIEnv(mock),
        TAGGING_HEADER_1: 'X-OpenWebUI-User-Id',
        TAGGING_HEADER_1_PREFIX: 'user',
        TAGGING_HEADER_2: 'X-OpenWebUI-User-Email',
        TAGGING_HEADER_2_PREFIX: 'email',
        TAGGING_HEADER_2_DONOTPASS: 'true',
        TAGGING_HEADER_3: 'X-OpenWebUI-User-Name',
        TAGGING_HEADER_3_PREFIX: 'name',
      },
    });
    const ann = client('ann');
    const chat = await ann.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
    ids.push(chat.response.headers.get('x-request-id')!);
    const stream = await ann.chat.completions.create({ model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
    for await (const chunk of stream.data) streamed += chunk.choices[0]?.delta.content ?? '';
    ids.push(stream.response.headers.get('x-request-id')!);
    const embeddings = await ann.embeddings.create({ model: 'openai/text-embedding-3-small', input: 'hello' }).withResponse();
    ids.push(embeddings.response.headers.get('x-request-id')!);
    const bob = await client('bob').chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }).withResponse();
    ids.push(bob.response.headers.get('x-request-id')!);
    mock.reset();
    const passthrough = await gw.fetch('/p/openai/v1/chat/completions', {
      method: 'POST',
      headers: USER_HEADERS.ann,
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] }),
    });
    expect(passthrough.status).to.equal(200);
    await passthrough.text();
    ids.push(passthrough.headers.get('x-request-id')!);
  });
  after(async () => {
    await gw.close();
    await mock.close();
  });

  it('passes the user id but never the DONOTPASS e-mail to the provider on passthrough, with the provider key', () => {
    const sent = mock.last();
    expect(sent.path).to.equal('/v1/chat/completions');
    expect(sent.headers['x-openwebui-user-id']).to.equal('u-ann');
    expect(sent.headers['x-openwebui-user-name']).to.equal('Ann%20M%C3%BCller');
    expect(sent.headers).to.not.have.property('x-openwebui-user-email');
    expect(sent.headers['authorization']).to.equal(`Bearer ${OPENAI_KEY}`);
  });

  it('records every call once with its labels (decoded), bodies and exact cost', async () => {
    const list = await json<{ data: Array<{ id: string }> }>('/admin/audit?limit=50');
    expect(list.data.map((e) => e.id)).to.deep.equal([...ids].reverse());
    const entries = await Promise.all(ids.map((id) => json<Entry>(`/admin/audit/${id}`)));
    const annLabels = { user: 'u-ann', email: 'ann@example.com', name: 'Ann Müller' };
    expect(entries.map((e) => [e.route, e.status, e.stream, e.labels, e.input_tokens, e.output_tokens, e.cost_usd, e.cost_pico])).to.deep.equal([
      ['/v1/chat/completions', 200, false, annLabels, 17, 4, '0.00000495', 4_950_000],
      ['/v1/chat/completions', 200, true, annLabels, 17, 4, '0.00000495', 4_950_000],
      ['/v1/embeddings', 200, false, annLabels, 5, 0, '0.0000001', 100_000],
      ['/v1/chat/completions', 200, false, { user: 'u-bob', email: 'bob@example.com', name: 'Bob' }, 17, 4, '0.00000495', 4_950_000],
      ['/p/openai/v1/chat/completions', 200, false, annLabels, 17, 4, '0.00000495', 4_950_000],
    ]);
    expect(entries[0]!.request_body).to.deep.equal({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] });
    expect((entries[0]!.response_body as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).to.equal('Hello, World!');
  });

  it('stores a stream reassembled into the final completion', async () => {
    const e = await json<Entry>(`/admin/audit/${ids[1]}`);
    const body = e.response_body as { object: string; choices: Array<{ message: { content: string }; finish_reason: string }>; usage: { total_tokens: number } };
    expect(streamed).to.equal('Hello, World!');
    expect(body.object).to.equal('chat.completion');
    expect(body.choices[0]!.message.content).to.equal(streamed);
    expect(body.choices[0]!.finish_reason).to.equal('stop');
    expect(body.usage.total_tokens).to.equal(21);
  });

  it("keeps each call's usage as the provider sent it (stored once, with the body that holds it)", async () => {
    const entries = await Promise.all(ids.slice(0, 3).map((id) => json<Entry & { usage: { raw?: unknown } }>(`/admin/audit/${id}`)));
    const [chat, stream, embeddings] = entries.map((e) => e.usage.raw);
    expect(chat).to.deep.equal({
      prompt_tokens: 17,
      completion_tokens: 4,
      total_tokens: 21,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
    expect(stream).to.deep.equal(chat);
    expect(embeddings).to.deep.equal({ prompt_tokens: 5, total_tokens: 5 });
    for (const e of entries) expect(e.usage.raw, e.route).to.deep.equal((e.response_body as { usage: unknown }).usage);
  });

  it('reports usage by label that adds up to the audit rows', async () => {
    const usage = await json<{ data: UsageRow[] }>('/admin/usage?group_by=label:user');
    const rows = Object.fromEntries(usage.data.map((r) => [r.value, r]));
    expect(rows['u-ann']).to.deep.include({ requests: 4, input_tokens: 56, output_tokens: 12, total_tokens: 68, cost_usd: '0.00001495' });
    expect(rows['u-bob']).to.deep.include({ requests: 1, input_tokens: 17, output_tokens: 4, total_tokens: 21, cost_usd: '0.00000495' });
    const entries = await Promise.all(ids.map((id) => json<Entry>(`/admin/audit/${id}`)));
    const picos = entries.reduce((sum, e) => sum + (e.cost_pico ?? 0), 0);
    const byLabel = usage.data.reduce((sum, r) => sum + Math.round(Number(r.cost_usd) * 1e12), 0);
    expect(byLabel).to.equal(picos);
    expect(usage.data.reduce((sum, r) => sum + r.requests, 0)).to.equal(ids.length);
  });
});
