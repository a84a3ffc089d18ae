// Admin routes that take no query parameter refuse one (docs/api.md, "Admin API": every
// parameter is checked, never a silently unfiltered answer): /admin/keys, /admin/keys/{id},
// /admin/prices, /admin/prices/{model} and /admin/audit/{id}, on the default plugins and the
// offline demo provider.
import { expect } from 'chai';
import { expectError } from '../helpers/errors.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

function unknownParameter(name: string) {
  return { message: `unknown query parameter '${name}' (this route takes none)`, type: 'invalid_request_error', code: null, param: name };
}

describe('admin routes without query parameters refuse one @integration', () => {
  let gw: TestGateway;
  let keyId: string;
  let entryId: string;

  before(async () => {
    gw = await startTestGateway();
    const created = await gw.fetch('/admin/keys', { method: 'POST', body: JSON.stringify({ name: 'query probe' }) });
    keyId = ((await created.json()) as { id: string }).id;
    const call = await gw.client().chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    entryId = call.response.headers.get('x-request-id')!;
  });
  after(() => gw?.close());

  const cases: Array<[string, string, () => string, string?]> = [
    ['GET', 'the key list', () => '/admin/keys?disabled=true'],
    ['POST', 'a key creation', () => '/admin/keys?dry_run=1', JSON.stringify({ name: 'never made' })],
    ['GET', 'one key', () => `/admin/keys/${keyId}?expand=spend`],
    ['PATCH', 'a key change', () => `/admin/keys/${keyId}?disabled=true`, JSON.stringify({ name: 'renamed' })],
    ['DELETE', 'a key revocation', () => `/admin/keys/${keyId}?force=1`],
    ['GET', 'the price overrides', () => '/admin/prices?model=demo/echo'],
    ['GET', "one model's price", () => '/admin/prices/demo/echo?at=2026-01-01'],
    ['PUT', 'a price override', () => '/admin/prices/demo%2Fecho?currency=EUR', JSON.stringify({ input_per_mtok: 1 })],
    ['DELETE', 'a price override removal', () => '/admin/prices/demo/echo?all=true'],
    ['GET', 'one audit entry', () => `/admin/audit/${entryId}?fields=usage`],
  ];
  for (const [method, what, path, body] of cases) {
    it(`${method} ${what}: 400 naming the parameter`, async () => {
      const url = path();
      const name = new URL(url, gw.url).searchParams.keys().next().value!;
      await expectError(await gw.fetch(url, { method, ...(body !== undefined && { body }) }), 400, unknownParameter(name));
    });
  }

  it('changed nothing when it refused: the key keeps its name, no price override is in force', async () => {
    const key = (await (await gw.fetch(`/admin/keys/${keyId}`)).json()) as { name: string };
    expect(key.name).to.equal('query probe');
    const keys = (await (await gw.fetch('/admin/keys')).json()) as { data: Array<{ name: string }> };
    expect(keys.data.map((k) => k.name)).to.deep.equal(['query probe']);
    expect(await (await gw.fetch('/admin/prices')).json()).to.deep.equal({ object: 'list', data: [] });
  });

  it('still answers the same routes without a query string', async () => {
    expect((await gw.fetch(`/admin/keys/${keyId}`)).status).to.equal(200);
    expect((await gw.fetch('/admin/prices/demo/echo')).status).to.equal(200);
    expect((await gw.fetch(`/admin/audit/${entryId}`)).status).to.equal(200);
  });
});
