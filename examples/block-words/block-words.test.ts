// The example plugin loaded the way an operator loads one: by path from the config, after the
// shipped plugins, and called through the official openai SDK (the offline demo answers).
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { APIError } from 'openai';
import { StartupError } from '../../core/config-error.js';
import { expectError } from '../../test/helpers/errors.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { CHECKED_HEADER, blockedWordsPattern } from './index.js';

const PLUGIN = fileURLToPath(new URL('./index.ts', import.meta.url));
const BLOCKED = { message: 'the request contains a blocked word', type: 'invalid_request_error', code: 'blocked_word', param: 'messages[0].content' };

function withBlockWords(options: unknown): Record<string, unknown> {
  return { plugins: [...defaultPlugins(), { path: PLUGIN, options }] };
}

describe('examples/block-words, loaded by path @integration', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startTestGateway({ config: withBlockWords({ words: ['forbidden', 'project x'] }) });
  });
  after(() => gw.close());

  it('lets a clean chat through, marked as checked', async () => {
    const { data, response } = await gw.client().chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'Hello there' }] }).withResponse();
    expect(data.choices[0]!.message.content).to.equal('Hello there');
    expect(response.headers.get(CHECKED_HEADER)).to.equal('true');
  });

  it('refuses a chat with a blocked word: a 400 invalid_request_error through the SDK', async () => {
    const err = await gw.client().chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'Tell me something Forbidden.' }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(APIError);
    expect((err as APIError).status).to.equal(400);
    expect((err as APIError).error).to.deep.equal(BLOCKED);
  });

  it('answers with the whole envelope and no checked header; streams are refused before they start', async () => {
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', stream: true, messages: [{ role: 'user', content: 'forbidden' }] }) });
    expect(res.headers.get(CHECKED_HEADER)).to.equal(null);
    await expectError(res, 400, BLOCKED);
  });

  it('names the text part and the message that carried the word, phrases included', async () => {
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({
        model: 'demo/echo',
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: [{ type: 'text', text: 'first part' }, { type: 'text', text: 'about PROJECT X' }] },
        ],
      }),
    });
    await expectError(res, 400, { ...BLOCKED, param: 'messages[1].content[1].text' });
  });

  it('matches whole words only', async () => {
    const res = await gw.client().chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'unforbiddenness is not a word' }] });
    expect(res.choices[0]!.message.content).to.equal('unforbiddenness is not a word');
  });

  it('leaves other operations alone', async () => {
    const { response } = await gw.client().embeddings.create({ model: 'demo/echo', input: 'forbidden' }).withResponse();
    expect(response.status).to.equal(200);
    expect(response.headers.get(CHECKED_HEADER)).to.equal(null);
  });
});

describe('examples/block-words options @integration', () => {
  it('a custom message', async () => {
    const gw = await startTestGateway({ config: withBlockWords({ words: ['forbidden'], message: 'not on this gateway' }) });
    try {
      const res = await gw.fetch('/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'forbidden' }] }) });
      await expectError(res, 400, { ...BLOCKED, message: 'not on this gateway' });
    } finally {
      await gw.close();
    }
  });

  it('bad options stop startup with one line naming plugins[i] (path).options.key', async () => {
    const index = defaultPlugins().length;
    for (const [options, expected] of [
      [{ words: 'forbidden' }, 'options.words: must be array'],
      [{ words: [] }, 'options.words: must NOT have fewer than 1 items'],
      [{ words: ['ok'], colour: 'red' }, "options: must NOT have additional properties 'colour'"],
      [undefined, "options: must have required property 'words'"],
    ] as const) {
      const err = await startTestGateway({ config: withBlockWords(options) }).then(
        async (gw) => {
          await gw.close();
          return null;
        },
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(options)).to.be.instanceOf(StartupError);
      expect((err as StartupError).message).to.equal(`<inline config>: plugins[${index}] (${PLUGIN}).${expected}`);
    }
  });

  it('escapes the words: they are text, not regular expressions', () => {
    const pattern = blockedWordsPattern(['a.b', 'c++']);
    expect(pattern.test('a.b')).to.equal(true);
    expect(pattern.test('axb')).to.equal(false);
    expect(pattern.test('use c++ here')).to.equal(true);
  });
});
