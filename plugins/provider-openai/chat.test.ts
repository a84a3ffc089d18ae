import { expect } from 'chai';
import { Cancellation } from '../../core/cancellation.js';
import type { UpstreamClient, UpstreamRequest } from '../../core/http-client.js';
import type { OperationRequest, Provider, Target } from '../../core/provider.js';
import type { ModelMetadata } from '../../core/types/models.js';
import { chatHandler } from './chat.js';
import { openAIEndpoint } from './provider.js';

const SENT = new Error('sent');

interface Call {
  body: Record<string, unknown>;
  streamUsageOption?: boolean;
  metadata?: ModelMetadata;
}

/** Deep-frozen, so that a handler changing the client's body throws (ES modules are strict). */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) frozen(member);
    Object.freeze(value);
  }
  return value;
}

/** What the chat handler sends upstream for a client body. */
async function send(call: Call): Promise<unknown> {
  let payload: unknown;
  const upstream = {
    request(req: UpstreamRequest): Promise<never> {
      payload = req.body;
      return Promise.reject(SENT);
    },
  } as unknown as UpstreamClient;
  const ep = openAIEndpoint({ name: 'openai', type: 'openai', baseUrl: 'http://upstream.test/v1', apiKey: 'sk-test', streamUsageOption: call.streamUsageOption ?? true });
  const body = frozen(call.body);
  const request: OperationRequest = { operation: 'chat', body, raw: null, stream: body['stream'] === true, model: 'openai/gpt-4o-mini', signal: new Cancellation(), id: 'r1', meter: { queuedMs: 0, upstreamHeaders: null, billed: null } };
  const target: Target = { provider: { name: 'openai' } as Provider, model: 'gpt-4o-mini', id: 'openai/gpt-4o-mini', metadata: call.metadata ?? null };
  const err = await chatHandler(upstream, ep)(request, target).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).to.equal(SENT);
  if (typeof payload !== 'string') throw new Error('no payload');
  return JSON.parse(payload);
}

const MESSAGES = [{ role: 'user', content: 'Explain what a gateway does.' }];

describe("provider-openai chat: upstream body, beside the client's (frozen) body", () => {
  it("is the client's body with the provider's model name, members in the client's order", async () => {
    const sent = await send({ body: { model: 'openai/gpt-4o-mini', messages: MESSAGES, temperature: 0.2 } });
    expect(JSON.stringify(sent)).to.equal(JSON.stringify({ model: 'gpt-4o-mini', messages: MESSAGES, temperature: 0.2 }));
  });

  it('asks a stream for usage, keeping the options the client gave', async () => {
    expect(await send({ body: { model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true } })).to.deep.equal({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
    const own = { model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true, stream_options: { include_usage: false, other: 1 } };
    expect(await send({ body: own })).to.deep.equal({ ...own, model: 'gpt-4o-mini', stream_options: { include_usage: true, other: 1 } });
  });

  it("leaves stream_options out for a server that takes none, the client's included", async () => {
    const body = { model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true, stream_options: { include_usage: true } };
    expect(await send({ body, streamUsageOption: false })).to.deep.equal({ model: 'gpt-4o-mini', messages: MESSAGES, stream: true });
  });

  it('moves a reasoning level to the nearest the model takes, and drops it for a model that cannot reason', async () => {
    expect(await send({ body: { model: 'openai/gpt-4o-mini', messages: MESSAGES, reasoning_effort: 'max' } })).to.deep.equal({ model: 'gpt-4o-mini', messages: MESSAGES, reasoning_effort: 'high' });
    const metadata = { capabilities: { reasoning: false } } as unknown as ModelMetadata;
    expect(await send({ body: { model: 'openai/gpt-4o-mini', messages: MESSAGES, reasoning_effort: 'low' }, metadata })).to.deep.equal({ model: 'gpt-4o-mini', messages: MESSAGES });
  });
});
