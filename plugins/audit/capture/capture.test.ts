import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestContext } from '../../../core/context.js';
import { badRequest } from '../../../core/errors.js';
import type { Provider, Target } from '../../../core/provider.js';
import type { RouteSpec } from '../../../core/routes.js';
import { emptyUsage } from '../../../core/types/usage.js';
import { isUnpriced } from '../audit-entry.js';
import { capture } from './capture.js';
import { materialize } from './materialize.js';
import { isCredentialHeader, redactHeaders } from './redact.js';

const ROUTE: RouteSpec = { method: 'POST', path: '/v1/chat/completions', access: 'client', operation: 'chat', body: 'json', streamFormat: null, handler: null };
const PROVIDER = { name: 'demo', type: 'demo', operations: {} } as Provider;
const TARGET: Target = { provider: PROVIDER, model: 'echo', id: 'demo/echo', metadata: null };

function makeContext(headers: Record<string, string | string[]> = {}, remoteAddress = '10.1.2.3'): RequestContext {
  const req = { method: 'POST', url: '/v1/chat/completions', headers, socket: { remoteAddress } } as unknown as IncomingMessage;
  return new RequestContext(req, {} as ServerResponse, ROUTE, {}, '/v1/chat/completions');
}

const NONE = { trustProxy: false };
const WHOLE = { maxBodyBytes: null };

describe('audit capture', () => {
  it('captures references only: no copy, no serialisation on the request path', () => {
    const ctx = makeContext({ 'content-type': 'application/json' });
    ctx.responseBody = { id: 'x', choices: [] };
    ctx.rawBody = Buffer.from('{"model":"demo/echo"}');
    ctx.labels = { team: 'ml' };
    const captured = capture(ctx, NONE);
    expect(captured.responseBody).to.equal(ctx.responseBody);
    expect(captured.rawBody).to.equal(ctx.rawBody);
    expect(captured.headers).to.equal(ctx.req.headers);
    expect(captured.labels).to.equal(ctx.labels);
    expect(captured.attempts).to.equal(ctx.attempts);
  });

  it('records every field of a priced call exactly', () => {
    const ctx = makeContext({ 'content-type': 'application/json', authorization: 'Bearer sk-secret', 'user-agent': 'test' });
    ctx.principal = { id: 'key_1', name: 'team one', kind: 'key', admin: false, labels: {}, allowedModels: null };
    ctx.labels = { team: 'ml', env: ['prod', 'eu'] };
    ctx.model = 'demo/echo';
    ctx.target = TARGET;
    // Kept byte for byte: spacing and key order are the client's.
    ctx.rawBody = Buffer.from('{ "model": "demo/echo",  "messages": [] }');
    ctx.responseBody = { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hé' } }] };
    ctx.status = 200;
    ctx.durationMs = 12.3456789;
    ctx.firstByteMs = 4.0000004;
    const usage = emptyUsage();
    usage.input_tokens = 10;
    usage.output_tokens = 3;
    usage.total_tokens = 13;
    ctx.usage = usage;
    ctx.cost = { total_usd: '0.0000033', source: 'computed', pico_usd: '3300000', lines: [] };
    ctx.attempts.push({ provider: 'demo', model: 'echo', status: 200, error: null, duration_ms: 2.5000004, queued_ms: 0.0000004 });
    ctx.traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const entry = materialize(capture(ctx, NONE), WHOLE);
    expect(entry).to.deep.equal({
      id: ctx.id,
      time: new Date(ctx.startedAt).toISOString(),
      ts: ctx.startedAt,
      duration_ms: 12.346,
      ttfb_ms: 4,
      method: 'POST',
      route: '/v1/chat/completions',
      operation: 'chat',
      model: 'demo/echo',
      resolved_model: 'demo/echo',
      provider_model: 'echo',
      provider: 'demo',
      status: 200,
      stream: false,
      key_id: 'key_1',
      key_name: 'team one',
      labels: { team: 'ml', env: ['prod', 'eu'] },
      client_ip: '10.1.2.3',
      input_tokens: 10,
      output_tokens: 3,
      total_tokens: 13,
      cost_usd: '0.0000033',
      cost_pico: 3_300_000,
      cost_source: 'computed',
      cache_hit: false,
      error: null,
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      request_headers: { 'content-type': 'application/json', authorization: '[redacted]', 'user-agent': 'test' },
      request_body: '{ "model": "demo/echo",  "messages": [] }',
      request_body_truncated: false,
      response_body: '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hé"}}]}',
      response_body_truncated: false,
      usage,
      cost: { total_usd: '0.0000033', source: 'computed', pico_usd: '3300000', lines: [] },
      attempts: [{ provider: 'demo', model: 'echo', status: 200, error: null, duration_ms: 2.5, queued_ms: 0 }],
    });
    expect(isUnpriced(entry)).to.equal(false);
  });

  it('redacts every credential header and keeps the others', () => {
    const headers = {
      authorization: 'Bearer sk-1',
      'proxy-authorization': 'Basic abc',
      cookie: 'session=1',
      'set-cookie': ['a=1', 'b=2'],
      'x-api-key': 'k',
      'api-key': 'k',
      'x-goog-api-key': 'k',
      'x-client-secret': 's',
      'x-auth-token': 't',
      'x-my-key-id': 'k',
      'content-type': 'application/json',
      'user-agent': 'OpenAI/JS',
      'x-team': 'ml',
      accept: 'application/json',
    };
    expect(redactHeaders(headers)).to.deep.equal({
      authorization: '[redacted]',
      'proxy-authorization': '[redacted]',
      cookie: '[redacted]',
      'set-cookie': '[redacted]',
      'x-api-key': '[redacted]',
      'api-key': '[redacted]',
      'x-goog-api-key': '[redacted]',
      'x-client-secret': '[redacted]',
      'x-auth-token': '[redacted]',
      'x-my-key-id': '[redacted]',
      'content-type': 'application/json',
      'user-agent': 'OpenAI/JS',
      'x-team': 'ml',
      accept: 'application/json',
    });
    expect(isCredentialHeader('keep-alive')).to.equal(false);
    // The original headers are untouched: the redacted copy is the audit's own.
    expect(headers.authorization).to.equal('Bearer sk-1');
  });

  it('takes the client address from the socket, and from x-forwarded-for only when trusted', () => {
    const ctx = makeContext({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }, '10.0.0.1');
    expect(materialize(capture(ctx, NONE), WHOLE).client_ip).to.equal('10.0.0.1');
    expect(materialize(capture(ctx, { trustProxy: true }), WHOLE).client_ip).to.equal('203.0.113.7');
    const direct = makeContext({}, '::1');
    expect(materialize(capture(direct, { trustProxy: true }), WHOLE).client_ip).to.equal('::1');
  });

  it('cuts bodies at the cap on a character boundary and says so', () => {
    const ctx = makeContext();
    ctx.rawBody = Buffer.from('{"text":"ééééé"}');
    ctx.responseBody = { text: 'ab€cd' };
    const entry = materialize(capture(ctx, NONE), { maxBodyBytes: 12 });
    // 'é' is 2 bytes: the first takes bytes 9-10, the second 11-12, one past a 12-byte cap.
    expect(entry.request_body).to.equal('{"text":"é');
    expect(entry.request_body_truncated).to.equal(true);
    // The euro sign takes bytes 11-13: it does not fit in 12.
    expect(entry.response_body).to.equal('{"text":"ab');
    expect(entry.response_body_truncated).to.equal(true);
    const whole = materialize(capture(ctx, NONE), { maxBodyBytes: 1000 });
    expect(whole.request_body).to.equal('{"text":"ééééé"}');
    expect(whole.request_body_truncated).to.equal(false);
    expect(whole.response_body_truncated).to.equal(false);
  });

  it('records a failed call: the error, no usage, an unknown price without a provider', () => {
    const ctx = makeContext();
    ctx.model = 'nobody/x';
    ctx.status = 400;
    ctx.error = badRequest("'messages' is required", 'messages');
    const entry = materialize(capture(ctx, NONE), WHOLE);
    expect(entry.error).to.deep.equal({ type: 'invalid_request_error', code: null, message: "'messages' is required", status: 400, provider: null });
    expect(entry).to.include({ status: 400, provider: null, resolved_model: null, cost_usd: null, cost_pico: null, cost_source: null, input_tokens: 0, total_tokens: 0, key_id: null });
    // The client got the error envelope, so that is the response body.
    expect(entry.response_body).to.equal('{"error":{"message":"\'messages\' is required","type":"invalid_request_error","code":null,"param":"messages"}}');
    expect(isUnpriced(entry)).to.equal(false);
  });

  it('an unknown price on a call a provider answered is unpriced', () => {
    const ctx = makeContext();
    ctx.target = TARGET;
    ctx.cost = { total_usd: null, source: 'unknown', pico_usd: null, lines: [] };
    const entry = materialize(capture(ctx, NONE), WHOLE);
    expect(entry).to.include({ cost_usd: null, cost_pico: null, cost_source: 'unknown' });
    expect(isUnpriced(entry)).to.equal(true);
  });
});
