import { expect } from 'chai';
import { fixtureText } from '../../test/helpers/fixtures.js';
import { chatFoldedPerEvent } from '../../test/helpers/sse.js';
import { foldCanonicalChunks } from './canonical-chunks.js';
import { ChatCompletionBuilder } from '../../core/stream/chat-completion-builder.js';
import { OpenAIChatFold as ChatFold } from './chat-fold.js';

const HEAD = '"id":"chatcmpl-1","object":"chat.completion.chunk","created":1769092764,"model":"gpt-4o-mini","service_tier":"default","system_fingerprint":"fp_1"';
const event = (json: string): string => `data: ${json}\n\n`;
const chunk = (delta: string, finish = 'null', after = ',"obfuscation":"xY"', head = HEAD): string =>
  event(`{${head},"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}]${after}}`);

/** How far the canonical reader gets from the start of `text`. */
function canonicalEnd(text: string): number {
  return foldCanonicalChunks(text, 0, new ChatCompletionBuilder());
}

/** The fold of `text`, as ChatFold gives it from a string and from bytes, against the per-event parse. */
function expectFoldsLikeParse(text: string): void {
  const expected = chatFoldedPerEvent(text);
  for (const input of [text, Buffer.from(text)]) {
    const fold = new ChatFold();
    fold.add(input);
    expect(fold.value()).to.deep.equal(expected);
  }
}

describe('canonical OpenAI chunks', () => {
  it("reads every choice chunk of a recorded OpenAI stream, obfuscation padding included, and stops at [DONE]", () => {
    const text = fixtureText('recorded/openai/chat_completion_stream.txt');
    expect(canonicalEnd(text)).to.equal(text.indexOf('data: [DONE]'));
    expectFoldsLikeParse(text);
  });

  it('reads the role chunk, text tokens, a role alone, refusal: null, usage: null and the finish chunk', () => {
    const text =
      chunk('{"role":"assistant","content":"","refusal":null}') +
      chunk('{"content":"Hello"}', 'null', ',"usage":null') +
      chunk('{"role":"assistant"}', 'null', '') +
      chunk('{"content":", world","refusal":null}') +
      chunk('{}', '"length"', ',"usage":null,"obfuscation":""');
    expect(canonicalEnd(text)).to.equal(text.length);
    expectFoldsLikeParse(text);
    const fold = new ChatFold();
    fold.add(text);
    expect(fold.value()).to.deep.equal({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1769092764,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello, world' }, finish_reason: 'length' }],
      system_fingerprint: 'fp_1',
    });
  });

  it('keeps the first chunk head and the last fingerprint, as a parse of each chunk does', () => {
    const later = HEAD.replace('chatcmpl-1', 'chatcmpl-2').replace('1769092764', '7').replace('gpt-4o-mini', 'other').replace('fp_1', 'fp_2');
    const text = chunk('{"content":"a"}') + chunk('{"content":"b"}', 'null', '', later) + chunk('{"content":"c"}', 'null', '', HEAD.replace(',"system_fingerprint":"fp_1"', ''));
    expect(canonicalEnd(text)).to.equal(text.length);
    expectFoldsLikeParse(text);
  });

  it('records nothing for an empty finish reason, as a parse does', () => {
    const text = chunk('{"content":"a"}') + chunk('{}', '""');
    expect(canonicalEnd(text)).to.equal(text.length);
    expectFoldsLikeParse(text);
  });

  it('takes an empty first id as a parse does: the next chunk names the completion', () => {
    const text = chunk('{"content":"a"}', 'null', '', HEAD.replace('chatcmpl-1', '')) + chunk('{"content":"b"}');
    expect(canonicalEnd(text)).to.equal(text.length);
    expectFoldsLikeParse(text);
  });

  // Each of these is JSON the pattern must not read: the fold leaves it to the parser, and
  // the result is still what a parse of each event gives.
  const others: Array<[string, string]> = [
    ['an escape in the text', chunk('{"content":"line\\nbreak \\"quoted\\" \\u00e9"}')],
    ['a null fingerprint', chunk('{"content":"a"}', 'null', '', HEAD.replace('"fp_1"', 'null'))],
    ['a second choice', event(`{${HEAD},"choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null},{"index":1,"delta":{"content":"b"},"logprobs":null,"finish_reason":null}]}`)],
    ['choice index 1', chunk('{"content":"a"}').replace('"index":0', '"index":1')],
    ['usage on a content chunk', chunk('{"content":"a"}', 'null', ',"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}')],
    ['a later duplicate choices member', chunk('{"content":"a"}', 'null', ',"choices":[]')],
    ['a duplicate key inside the choice', chunk('{"content":"a"}', 'null,"index":3')],
    ['space between members', chunk('{"content": "a"}')],
    ['a provider member (Groq)', chunk('{"content":"a"}', 'null', ',"x_groq":{"id":"req_1"}')],
    ['a created time that is not a plain integer', chunk('{"content":"a"}', 'null', '', HEAD.replace('1769092764', '1.5e9'))],
    ['tool call deltas', chunk('{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]}')],
    ['log probabilities', chunk('{"content":"a"}').replace('"logprobs":null', '"logprobs":{"content":[]}')],
    ['a refusal', chunk('{"refusal":"I can\'t"}')],
    ['CRLF framing', chunk('{"content":"a"}').replace('\n\n', '\r\n\r\n')],
  ];
  for (const [what, text] of others) {
    it(`leaves ${what} to the parser`, () => {
      const stream = chunk('{"content":"x"}') + text + chunk('{"content":"y"}', '"stop"');
      expect(canonicalEnd(stream)).to.equal(chunk('{"content":"x"}').length);
      expectFoldsLikeParse(stream);
    });
  }

  it('stops folding at an error event, as the parse does', () => {
    // (The per-event parse throws the provider's error here: the relay answers it.)
    const stream = chunk('{"content":"x"}') + event('{"error":{"message":"overloaded"}}') + chunk('{"content":"y"}');
    const fold = new ChatFold();
    fold.add(stream);
    expect((fold.value() as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).to.equal('x');
  });
});
