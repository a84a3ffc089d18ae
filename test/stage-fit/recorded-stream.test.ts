import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { auditEntry } from '../helpers/audit-entry.js';
import { waitFor } from '../helpers/net.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { BODY, EVENTS, USAGE } from './recorded-stream.test-plugin.js';
import { testPlugin } from './test-plugin-entry.js';

type Audit = { status: number; usage: unknown; response_body: unknown; attempts: unknown[] };

describe('stage fit: a cache tap answers whole (recordedReply for a stream, JSON otherwise) @integration', () => {
  const fit = withOpenAIGateway(() => ({ plugins: [...defaultPlugins(), testPlugin('./recorded-stream.test-plugin.ts')] }));

  const call = (stream: boolean, delayMs: number, signal?: AbortSignal): Promise<Response> =>
    fit.gw.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-delay-ms': String(delayMs) },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream }),
      signal,
    });
  const streamCall = (delayMs: number, signal?: AbortSignal): Promise<Response> => call(true, delayMs, signal);

  it('sends the events as given with an event-stream head and the reply\'s headers; the log records its usage and body', async () => {
    const res = await streamCall(0);
    expect([res.status, res.headers.get('content-type'), res.headers.get('x-recorded'), res.headers.get('x-gateway-provider')]).to.deep.equal([200, 'text/event-stream; charset=utf-8', 'yes', 'openai']);
    expect(await res.text()).to.equal(EVENTS);
    const entry = await auditEntry<Audit>(fit.gw, res.headers.get('x-request-id')!);
    expect([entry.status, entry.usage, entry.response_body, entry.attempts]).to.deep.equal([200, USAGE, JSON.parse(BODY), []]);
    expect(fit.mock.requests).to.have.length(0);
  });

  it('sends nothing to a client that left while the tap answered, stream or JSON: the call is recorded as 499 with its usage', async () => {
    for (const stream of [true, false]) {
      const gone = new AbortController();
      const answered = call(stream, 300, gone.signal).catch(() => 'aborted');
      await sleep(100);
      gone.abort();
      expect(await answered).to.equal('aborted');
    }
    type Left = { data: Array<{ status: number; stream: boolean; total_tokens: number; error: { code: string; message: string } }> };
    let left: Left = { data: [] };
    // Each call ends when its tap's wait does, 300 ms after it began.
    await waitFor(async () => (left = (await (await fit.gw.fetch('/admin/audit?status=499')).json()) as Left).data.length === 2, 3000, 'the two calls whose clients left');
    expect(left.data.map((e) => [e.status, e.stream, e.total_tokens, e.error.code, e.error.message])).to.deep.equal([
      [499, false, 4, 'client_closed', 'the client closed the connection before it was answered'],
      [499, true, 4, 'client_closed', 'the client closed the connection before it was answered'],
    ]);
  });
});
