import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startOpenAIMock } from '../helpers/mock-openai.js';
import type { MockProvider } from '../helpers/mock-provider.js';
import { waitFor } from '../helpers/net.js';
import { defaultPlugins } from '../helpers/plugins.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { testPlugin } from './test-plugin-entry.js';

const CHAT = '/v1/chat/completions';
const FIRST_CHUNK = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] })}\n\n`;

describe('stage fit: a forward tap lets go of a stream invoke primed @integration', () => {
  // The routed target (openai, the gateway's mock) sends its head and a first chunk, then holds
  // its connection open as a model still generating would; the fallback (openai-b) answers.
  let up: MockProvider;
  /** When the routed target's connection closed (performance.now()), or null while it is open. */
  let routedClosedAt: number | null = null;
  before(async () => {
    up = await startOpenAIMock();
  });
  after(async () => {
    await up?.close();
  });
  const fit = withOpenAIGateway((down) => {
    down.on('POST', CHAT, (_req, res: ServerResponse) => {
      res.on('close', () => (routedClosedAt = performance.now()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(FIRST_CHUNK);
    });
    return {
      providers: { 'openai-b': { type: 'openai', base_url: `${up.url}/v1`, api_key: 'sk-b' } },
      plugins: [...defaultPlugins(), testPlugin('./second-opinion.test-plugin.ts', { fallback: 'openai-b/gpt-4o-mini' })],
    };
  });
  beforeEach(() => {
    routedClosedAt = null;
    up.reset();
  });

  const streamCall = (then: string): Promise<Response> =>
    fit.gw.fetch(CHAT, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-then': then }, body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true }) });

  it('closes its upstream call when the tap invokes the next target, not once that target has answered', async () => {
    let fallbackAskedAt = 0;
    up.on('POST', CHAT, async (_req, res) => {
      fallbackAskedAt = performance.now();
      await sleep(300);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${FIRST_CHUNK}data: [DONE]\n\n`);
    });
    const res = await streamCall('fallback');
    expect([res.status, res.headers.get('x-gateway-provider'), await res.text()]).to.deep.equal([200, 'openai-b', `${FIRST_CHUNK}data: [DONE]\n\n`]);
    // Cancelled as the fallback was called: its close reached the mock well within the 300 ms the fallback took.
    expect(routedClosedAt).to.not.equal(null);
    expect(routedClosedAt! - fallbackAskedAt).to.be.below(100);
  });

  for (const [then, status] of [['refuse', 400], ['json', 200]] as const) {
    it(`closes its upstream call when the tap answers otherwise (${then}), not when the provider gives up`, async () => {
      const res = await streamCall(then);
      const answeredAt = performance.now();
      expect(res.status).to.equal(status);
      await res.text();
      await waitFor(() => routedClosedAt !== null, 1000, "the routed target's connection to close");
      expect(routedClosedAt! - answeredAt).to.be.below(100);
    });
  }
});
