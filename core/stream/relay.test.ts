// The relay's writes to the client: a burst of pass-through events goes out as one write, cut
// only around an event the client must not get.
import { expect } from 'chai';
import { fixtureText } from '../../test/helpers/fixtures.js';
import { chatContext } from '../../test/helpers/relay-context.js';
import { streamReply } from '../reply.js';
import { UpstreamBody } from '../upstream-body.js';
import { chatStreamFormat } from './chat-format.js';
import { ChatChunkStream } from './client-format-streams.js';
import { replayedChat } from './json-answer.js';
import { relayStream } from './relay.js';
import { StreamCopy } from './stream-copy.js';
import { SecretText } from '../secret-text.js';

const RECORDED = fixtureText('recorded/openai/chat_completion_stream.txt');
const CONTENT = RECORDED.slice(0, RECORDED.lastIndexOf('data: [DONE]'));
const USAGE_EVENT = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":17,"completion_tokens":4,"total_tokens":21}}\n\n';
const DONE_EVENT = 'data: [DONE]\n\n';

/** Relays `events`, handed over by undici as one frame each within one socket read. */
async function relay(events: string[], includeUsage: boolean): Promise<string[]> {
  return (await relayed(events, includeUsage)).writes;
}

/** The same, with the response body the relay leaves for the audit log. */
async function relayed(events: string[], includeUsage: boolean, copy: StreamCopy | null = null): Promise<{ writes: string[]; responseBody: unknown }> {
  const { ctx, res } = chatContext(includeUsage, copy);
  const body = new UpstreamBody('openai');
  const done = relayStream(ctx, streamReply(body, new ChatChunkStream('openai')), chatStreamFormat, new SecretText([]));
  for (const event of events) body.push(Buffer.from(event));
  body.finish();
  await done;
  return { writes: res.writes, responseBody: JSON.parse(JSON.stringify(ctx.responseBody)) };
}

function chunkEvent(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

describe('stream relay writes', () => {
  const events = [...CONTENT.split(/(?<=\n\n)/), USAGE_EVENT, DONE_EVENT];

  it('writes a burst whose usage chunk the client asked for as one write, byte for byte', async () => {
    expect(events.length).to.be.greaterThan(5);
    expect(await relay(events, true)).to.deep.equal([events.join('')]);
  });

  it('cuts the burst only around the usage chunk a client did not ask for', async () => {
    expect(await relay(events, false)).to.deep.equal([CONTENT, DONE_EVENT]);
  });

  it("sends the events before an error in the same burst, then the contract's error event, last", async () => {
    const error = 'data: {"error":{"message":"the model is overloaded","type":"server_error","code":"overloaded"}}\n\n';
    const writes = await relay([...CONTENT.split(/(?<=\n\n)/), error, DONE_EVENT], true);
    expect(writes).to.have.length(2);
    expect(writes[0]).to.equal(CONTENT);
    const last = JSON.parse(writes[1]!.replace(/^data: /, '')) as { error: { message: string; provider: string } };
    expect(writes[1]).to.match(/^data: \{.*\}\n\n$/s);
    expect(last.error).to.include({ message: 'the model is overloaded', provider: 'openai' });
  });

  it('copies a pass-through stream as the upstream sent it, the usage chunk the client did not see included', async () => {
    const copy = new StreamCopy(10_000);
    const upstream = [...CONTENT.split(/(?<=\n\n)/), USAGE_EVENT, chunkEvent({ content: 'ü' })];
    const { writes } = await relayed(upstream, false, copy);
    // The upstream ended without [DONE]: the relay's own goes out, and into the copy.
    expect(writes.join('')).to.equal(CONTENT + chunkEvent({ content: 'ü' }) + DONE_EVENT);
    expect(copy.text()).to.equal(upstream.join('') + DONE_EVENT);
  });

  it('copies a translated stream as the format framed it, the hidden usage chunk and the trailer included', async () => {
    const copy = new StreamCopy(10_000);
    const { ctx, res } = chatContext(false, copy);
    const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Grüß' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } };
    await relayStream(ctx, replayedChat('p', completion, null), chatStreamFormat, new SecretText([]));
    const usageChunk = `data: ${JSON.stringify({ id: 'c', created: 1, model: 'm', object: 'chat.completion.chunk', choices: [], usage: completion.usage })}\n\n`;
    expect(copy.text()).to.equal(res.writes.join('').replace(DONE_EVENT, usageChunk + DONE_EVENT));
    expect(res.writes.join('')).to.not.include('"usage"');
  });

  it('keeps nothing of a stream longer than the copy may hold', async () => {
    const copy = new StreamCopy(CONTENT.length);
    await relayed([...CONTENT.split(/(?<=\n\n)/), USAGE_EVENT, DONE_EVENT], true, copy);
    expect([copy.overflowed, copy.text()]).to.deep.equal([true, null]);
  });

  // An ASCII burst is folded from the text the relay scanned; any other from its bytes.
  for (const tokens of [['Hello', ' there', ', friend'], ['Gr', 'üß', ' Gott', ', 日本', ' 🎉']]) {
    it(`folds a burst of ${tokens.join('')} into the completion the client was sent`, async () => {
      const burst = [chunkEvent({ role: 'assistant', content: '' }), ...tokens.map((t) => chunkEvent({ content: t })), chunkEvent({}, 'stop'), DONE_EVENT];
      const { writes, responseBody } = await relayed(burst, false);
      expect(writes).to.deep.equal([burst.join('')]);
      expect(responseBody).to.deep.equal({
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: tokens.join('') }, finish_reason: 'stop' }],
      });
    });
  }
});
