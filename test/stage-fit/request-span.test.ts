import { expect } from 'chai';
import { defaultPlugins } from '../helpers/plugins.js';
import { withOpenAIGateway } from '../helpers/openai-gateway.js';
import { testPlugin } from './test-plugin-entry.js';
import { recordedSpans } from './request-span.test-plugin.js';

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];
const EVERY_STAGE = ['auth', 'tag', 'route', 'limit', 'cache', 'forward', 'price', 'log'];

describe('stage fit: a span covers the whole request @integration', () => {
  const fit = withOpenAIGateway(() => ({ plugins: [...defaultPlugins(), testPlugin('./request-span.test-plugin.ts')] }));

  it('from the request taken to the last log tap, on JSON, on a stream and on a refused call', async () => {
    recordedSpans.length = 0;
    const sentAt = performance.now();
    await fit.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES });
    const stream = await fit.gw.client().chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES, stream: true });
    for await (const _chunk of stream);
    const refused = await fit.gw.client('sk-wrong').chat.completions.create({ model: 'openai/gpt-4o-mini', messages: MESSAGES }).catch((err: { status: number }) => err.status);
    expect(refused).to.equal(401);

    // The 401 is answered before the request's body was read: when the body has not all
    // arrived by then, the end waits for it (core/early-answer.ts), after the log stage.
    expect(recordedSpans.map((s) => [s.status, s.stages, s.answered, s.status === 401 || s.responseEnded])).to.deep.equal([
      [200, EVERY_STAGE, true, true],
      [200, EVERY_STAGE, true, true],
      [401, ['auth', 'price', 'log'], true, true],
    ]);
    for (const span of recordedSpans) {
      expect(span.traceId).to.match(/^[0-9a-f]{32}$/);
      expect(span.start).to.be.greaterThan(sentAt);
      // durationMs is taken after the response was written, before price and log ran.
      expect(span.end - span.start).to.be.at.least(span.durationMs!);
    }
  });
});
