import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { auditEntry } from '../helpers/audit-entry.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { BODY, EVENTS, USAGE } from './recorded-stream.test-plugin.js';
import { testPlugin } from './test-plugin-entry.js';

type Audit = { status: number; usage: unknown; response_body: unknown; attempts: unknown[] };

describe('stage fit: a cache tap answers with a stream known whole (recordedReply) @integration', () => {
  const fit = withOpenAIGateway(() => ({ plugins: [...defaultPlugins(), testPlugin('./recorded-stream.test-plugin.ts')] }));

  const streamCall = (delayMs: number, signal?: AbortSignal): Promise<Response> =>
    fit.gw.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-delay-ms': String(delayMs) },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true }),
      signal,
    });

  it('sends the events as given with an event-stream head and the reply\'s headers; the log records its usage and body', async () => {
    const res = await streamCall(0);
    expect([res.status, res.headers.get('content-type'), res.headers.get('x-recorded'), res.headers.get('x-gateway-provider')]).to.deep.equal([200, 'text/event-stream; charset=utf-8', 'yes', 'openai']);
    expect(await res.text()).to.equal(EVENTS);
    const entry = await auditEntry<Audit>(fit.gw, res.headers.get('x-request-id')!);
    expect([entry.status, entry.usage, entry.response_body, entry.attempts]).to.deep.equal([200, USAGE, JSON.parse(BODY), []]);
    expect(fit.mock.requests).to.have.length(0);
  });

  it('sends nothing to a client that left while the tap answered: the call is recorded as 499', async () => {
    const gone = new AbortController();
    const call = streamCall(300, gone.signal).catch(() => 'aborted');
    await sleep(100);
    gone.abort();
    expect(await call).to.equal('aborted');
    await sleep(400);
    const left = (await (await fit.gw.fetch('/admin/audit?status=499')).json()) as { data: Array<{ status: number }> };
    expect(left.data.map((e) => e.status)).to.deep.equal([499]);
  });
});
