// Once a request's work is over (after the log stage), its context lets go of everything the
// request held: a context that outlives its request in the old generation must not keep the
// request's bodies and node's request and response alive (core/context.ts, release()).
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { kept } from '../fixtures/plugins/context-keeper.js';
import { waitFor } from '../helpers/net.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { startTestGateway } from '../helpers/start-gateway.js';
import type { TestGateway } from '../helpers/start-gateway.js';

const KEEPER = fileURLToPath(new URL('../fixtures/plugins/context-keeper.ts', import.meta.url));
const HELD_AT_LOG = { req: true, res: true, rawBody: true, body: true, responseBody: true, usage: true, target: true, principal: true, attempts: 1 };

describe('a finished request releases its context @integration', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway({ config: { plugins: [...defaultPlugins(), { path: KEEPER }] } });
  });
  after(() => gw.close());
  beforeEach(() => {
    kept.length = 0;
  });

  async function released(): Promise<void> {
    expect(kept).to.have.length(1);
    const { ctx, atLog } = kept[0]!;
    expect(atLog).to.deep.equal(HELD_AT_LOG);
    await waitFor(() => (ctx as { req: unknown }).req === null, 2000, 'the context to be released');
    expect(ctx.res as unknown).to.equal(null);
    expect(ctx.rawBody).to.equal(null);
    expect(ctx.body).to.equal(null);
    expect(ctx.responseBody).to.equal(null);
    expect(ctx.usage).to.equal(null);
    expect(ctx.cost).to.equal(null);
    expect(ctx.target).to.equal(null);
    expect(ctx.principal).to.equal(null);
    expect(ctx.attempts).to.deep.equal([]);
    expect(ctx.labels).to.deep.equal({});
    expect(ctx.locals).to.deep.equal({});
    // What identifies the request stays, for whoever still holds the context.
    expect(ctx.id).to.match(/^[0-9a-f-]{36}$/);
    expect(ctx.status).to.equal(200);
    expect(ctx.model).to.equal('demo/echo');
  }

  it('after a chat completion, once the log stage has seen everything', async () => {
    const completion = await gw.client().chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hello there' }] });
    expect(completion.choices[0]!.message.content).to.equal('hello there');
    await released();
  });

  it('after a streamed chat completion', async () => {
    const stream = await gw.client().chat.completions.create({
      model: 'demo/echo',
      messages: [{ role: 'user', content: 'hello there' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).to.equal('hello there');
    await released();
  });
});
