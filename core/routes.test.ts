import { expect } from 'chai';
import type { RouteSpec } from './routes.js';
import { RouteTable } from './routes.js';

const handler = async (): Promise<void> => {};

function route(method: string, path: string, extra: Partial<RouteSpec> = {}): RouteSpec {
  return { method, path, access: 'client', operation: null, body: 'none', streamFormat: null, handler, ...extra };
}

function table(...routes: RouteSpec[]): RouteTable {
  const t = new RouteTable();
  for (const r of routes) t.add(r);
  return t;
}

describe('route table', () => {
  it('matches exact paths by method, with no params', () => {
    const models = route('GET', '/v1/models');
    const chat = route('POST', '/v1/chat/completions', { operation: 'chat', handler: null });
    const t = table(models, chat);
    expect(t.match('GET', '/v1/models')).to.deep.equal({ spec: models, params: {} });
    expect(t.match('POST', '/v1/chat/completions')).to.deep.equal({ spec: chat, params: {} });
  });

  it('tells an unknown path (null) from a known path with another method', () => {
    const t = table(route('POST', '/v1/chat/completions', { operation: 'chat', handler: null }));
    expect(t.match('POST', '/v1/nope')).to.equal(null);
    expect(t.match('GET', '/v1/chat/completions')).to.equal('method_not_allowed');
    expect(t.match('POST', '/v1/chat/completions/')).to.equal(null);
    expect(t.match('POST', '/V1/CHAT/COMPLETIONS')).to.equal(null);
  });

  it("'*' serves any method", () => {
    const any = route('*', '/ping');
    expect(table(any).match('DELETE', '/ping')).to.deep.equal({ spec: any, params: {} });
  });

  it('binds :param segments, which must not be empty', () => {
    const key = route('GET', '/admin/keys/:id', { access: 'admin' });
    const t = table(key);
    expect(t.match('GET', '/admin/keys/key_123')).to.deep.equal({ spec: key, params: { id: 'key_123' } });
    expect(t.match('GET', '/admin/keys/')).to.equal(null);
    expect(t.match('GET', '/admin/keys/a/b')).to.equal(null);
    expect(t.match('PATCH', '/admin/keys/key_123')).to.equal('method_not_allowed');
  });

  it('a trailing * takes the rest of the path, raw, and needs at least one segment', () => {
    const pass = route('*', '/p/:provider/*');
    const model = route('GET', '/v1/models/*');
    const t = table(pass, model);
    expect(t.match('POST', '/p/openai/v1/files/abc')).to.deep.equal({ spec: pass, params: { provider: 'openai', '*': 'v1/files/abc' } });
    expect(t.match('GET', '/v1/models/openai%2Fgpt-4o')).to.deep.equal({ spec: model, params: { '*': 'openai%2Fgpt-4o' } });
    expect(t.match('GET', '/v1/models/openai/gpt-4o')).to.deep.equal({ spec: model, params: { '*': 'openai/gpt-4o' } });
    expect(t.match('GET', '/p/openai')).to.equal(null);
  });

  it('an exact path wins over a pattern; patterns are tried in registration order', () => {
    const list = route('GET', '/v1/models');
    const one = route('GET', '/v1/models/*');
    const first = route('GET', '/x/:a');
    const second = route('GET', '/x/:b');
    const t = table(one, list, first, second);
    expect(t.match('GET', '/v1/models')!).to.deep.equal({ spec: list, params: {} });
    expect(t.match('GET', '/x/1')).to.deep.equal({ spec: first, params: { a: '1' } });
  });

  it('a pattern still serves a method the exact route of the same path lacks', () => {
    const create = route('POST', '/admin/keys', { access: 'admin' });
    const read = route('GET', '/admin/:section', { access: 'admin' });
    const t = table(create, read);
    expect(t.match('POST', '/admin/keys')).to.deep.equal({ spec: create, params: {} });
    expect(t.match('GET', '/admin/keys')).to.deep.equal({ spec: read, params: { section: 'keys' } });
    expect(t.match('DELETE', '/admin/keys')).to.equal('method_not_allowed');
  });

  it('lists the methods a path allows, for the Allow header of a 405', () => {
    const t = table(route('GET', '/admin/keys'), route('POST', '/admin/keys'), route('PATCH', '/admin/keys/:id'), route('DELETE', '/admin/keys/:id'), route('*', '/p/:provider/*'));
    expect(t.allowedMethods('/admin/keys')).to.deep.equal(['GET', 'POST']);
    expect(t.allowedMethods('/admin/keys/k1')).to.deep.equal(['PATCH', 'DELETE']);
    expect(t.allowedMethods('/nowhere')).to.deep.equal([]);
  });

  it('refuses a route registered twice, and one with neither an operation nor a handler', () => {
    const t = table(route('GET', '/healthz'));
    expect(() => t.add(route('GET', '/healthz'))).to.throw('route GET /healthz is registered twice');
    expect(() => t.add(route('GET', '/nothing', { handler: null }))).to.throw('route /nothing needs an operation or a handler');
  });
});
