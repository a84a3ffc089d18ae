// The conversation view reads each call's text from the bodies the audit log stores: this runs
// its reader (app/conversation-turn.ts) on entries a gateway stored for real calls in every
// shape it records: chat, Responses and Anthropic answers, JSON and streamed, translated and
// through passthrough, a multi-turn request, and an error.
import { expect } from 'chai';
import { ANTHROPIC_KEY, AnthropicMock } from '../../test/helpers/mock-anthropic.js';
import { GEMINI_KEY, GeminiMock } from '../../test/helpers/mock-gemini.js';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import { turnOf } from './app/conversation-turn.js';
import type { Turn } from './app/conversation-turn.js';

describe('conversation view: each call\'s text from the stored bodies @integration', function () {
  this.timeout(30_000);
  let openai: MockProvider;
  let anthropic: AnthropicMock;
  let gemini: GeminiMock;
  let gw: TestGateway;

  before(async () => {
    openai = await startOpenAIMock();
    anthropic = await AnthropicMock.start();
    gemini = await GeminiMock.start();
    gw = await startTestGateway({
      env: { ...openAIEnv(openai), ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: anthropic.url, GEMINI_API_KEY: GEMINI_KEY, GEMINI_BASE_URL: gemini.url },
    });
  });
  after(async () => {
    await gw.close();
    await openai.close();
    await anthropic.close();
    await gemini.close();
  });

  /** Sends the call, then reads its stored entry back as the dashboard does. */
  const turn = async (path: string, body: unknown): Promise<Turn> => {
    const res = await gw.fetch(path, { method: 'POST', body: JSON.stringify(body) });
    await res.text();
    const entry = (await (await gw.fetch(`/admin/audit/${res.headers.get('x-request-id')}`)).json()) as { request_body: unknown; response_body: unknown };
    return turnOf(entry.request_body, entry.response_body);
  };
  const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'first question' }, { role: 'assistant', content: 'first answer' }, { role: 'user', content: 'second question' }] };
  const claude = 'claude-sonnet-4-20250514';

  it('reads chat completions, JSON and streamed, and the last user message of a multi-turn request', async () => {
    expect(await turn('/v1/chat/completions', chat)).to.deep.equal({ user: 'second question', assistant: 'Hello, World!' });
    expect(await turn('/v1/chat/completions', { ...chat, stream: true })).to.deep.equal({ user: 'second question', assistant: 'Hello, World!' });
    const parts = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }] };
    expect(await turn('/v1/chat/completions', parts)).to.deep.equal({ user: 'what is this?\n[image url]', assistant: 'Hello, World!' });
  });

  it('reads Responses, JSON and streamed, from a string input and from input items', async () => {
    expect(await turn('/v1/responses', { model: 'openai/gpt-4o-mini', input: 'say hello' })).to.deep.equal({ user: 'say hello', assistant: 'Hello, World!' });
    const items = { model: 'openai/gpt-4o-mini', stream: true, input: [{ role: 'user', content: [{ type: 'input_text', text: 'say it again' }] }] };
    expect(await turn('/v1/responses', items)).to.deep.equal({ user: 'say it again', assistant: 'Hello, World!' });
    expect(await turn('/v1/responses', { ...items, model: `anthropic/${claude}`, stream: false })).to.deep.equal({ user: 'say it again', assistant: 'Hello World' });
  });

  it('reads Anthropic messages through passthrough, JSON and the streamed transcript, and a chat call translated to Anthropic', async () => {
    const message = { model: claude, max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }] };
    expect(await turn('/p/anthropic/v1/messages', message)).to.deep.equal({ user: 'Say hi', assistant: 'Hello World' });
    expect(await turn('/p/anthropic/v1/messages', { ...message, stream: true })).to.deep.equal({ user: 'Say hi', assistant: 'Hello World' });
    expect(await turn('/v1/chat/completions', { ...chat, model: `anthropic/${claude}` })).to.deep.equal({ user: 'second question', assistant: 'Hello World' });
  });

  it('reads an OpenAI stream through passthrough and a Gemini answer', async () => {
    expect(await turn('/p/openai/v1/chat/completions', { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'stream it' }] })).to.deep.equal({ user: 'stream it', assistant: 'Hello, World!' });
    const contents = { contents: [{ role: 'user', parts: [{ text: 'Which is larger, 9.9 or 9.11?' }] }] };
    expect(await turn('/p/gemini/v1beta/models/gemini-2.5-flash:generateContent', contents)).to.deep.equal({ user: 'Which is larger, 9.9 or 9.11?', assistant: '9.9 is larger. Both numbers have 9 as the whole part, and in the tenths place 9.9 has a 9 while 9.11 has a 1, so 9.9 > 9.11.' });
  });

  it('has no answer for an error (a 404 model_not_found), only the question', async () => {
    expect(await turn('/v1/chat/completions', { ...chat, model: 'nowhere/model' })).to.deep.equal({ user: 'second question', assistant: null });
  });
});
