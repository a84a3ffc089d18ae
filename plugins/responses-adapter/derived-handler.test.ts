import { expect } from 'chai';
import { Cancellation } from '../../core/cancellation.js';
import type { OperationHandler, OperationRequest, Provider, Target } from '../../core/provider.js';
import { jsonReply } from '../../core/reply.js';
import { deriveResponses } from './derived-handler.js';

const TARGET: Target = { provider: { name: 'demo' } as Provider, model: 'echo', id: 'demo/echo', metadata: null };
const COMPLETION = { id: 'c1', object: 'chat.completion', created: 1, model: 'echo', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] };

describe('responses-adapter derived handler', () => {
  it("asks the chat handler a chat request of its own, and leaves the client's request as it came, across the await", async () => {
    const body = Object.freeze({ model: 'demo/echo', input: 'hello' });
    const raw = Buffer.from(JSON.stringify(body));
    const request: OperationRequest = Object.freeze({ operation: 'responses', body, raw, stream: false, model: 'demo/echo', signal: new Cancellation(), id: 'r1', meter: { queuedMs: 0, upstreamHeaders: null, billed: null } });
    const seen: Array<{ asked: OperationRequest; clientBody: unknown }> = [];
    const chat: OperationHandler = async (asked) => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push({ asked, clientBody: request.body });
      return jsonReply(COMPLETION);
    };
    const reply = await deriveResponses(chat)(request, TARGET);
    expect(seen).to.have.length(1);
    const { asked, clientBody } = seen[0]!;
    expect(asked).to.include({ operation: 'chat', raw: null, stream: false, model: 'demo/echo', signal: request.signal, id: 'r1', meter: request.meter });
    expect(asked.body).to.deep.equal({ model: 'demo/echo', messages: [{ role: 'user', content: 'hello' }] });
    expect(clientBody).to.equal(body);
    expect(request.body).to.deep.equal({ model: 'demo/echo', input: 'hello' });
    expect(reply.kind).to.equal('json');
  });
});
