import { expect } from 'chai';
import { fixtureText } from '../../test/helpers/fixtures.js';
import { chatFoldedPerEvent } from '../../test/helpers/sse.js';
import { ChatFold } from './chat-fold.js';
import { resolvedBody } from './stream-fold.js';
import type { StreamFold } from './stream-fold.js';

function fold(pieces: Buffer[]): StreamFold {
  const f = new ChatFold();
  for (const piece of pieces) f.add(piece);
  return f;
}

describe('chat stream fold', () => {
  for (const provider of ['openai', 'groq', 'xai']) {
    it(`folds a recorded ${provider} stream into the object an event-by-event fold builds`, () => {
      const text = fixtureText(`recorded/${provider}/chat_completion_stream.txt`);
      const bytes = Buffer.from(text);
      const half = bytes.indexOf('\n\n', bytes.length >> 1) + 2;
      const f = fold([bytes.subarray(0, half), bytes.subarray(half)]);
      expect(f.value()).to.deep.equal(chatFoldedPerEvent(text));
      expect(JSON.parse(JSON.stringify(f))).to.deep.equal(chatFoldedPerEvent(text));
      expect(resolvedBody(f)).to.equal(f.value());
    });
  }

  it('folds a stream longer than what it keeps as bytes, and gives the same object', () => {
    const event = (content: string): string =>
      `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}]}\n\n`;
    const pieces: Buffer[] = [];
    let text = '';
    for (let i = 0; i < 4000; i++) {
      const e = event(`token ${i} `);
      pieces.push(Buffer.from(e));
      text += e;
    }
    const result = fold(pieces).value() as { choices: Array<{ message: { content: string } }> };
    expect(result).to.deep.equal(chatFoldedPerEvent(text));
    expect(result.choices[0]!.message.content.length).to.equal(text.length - 4000 * (event('').length));
  });

  it('reads the members after the choices that change the fold, escaped or not, and skips the rest', () => {
    const chunk = (delta: string, tail: string): string =>
      `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":${delta},"finish_reason":null}]${tail}}\n\n`;
    const text =
      chunk('{"role":"assistant","content":""}', ',"usage":null') +
      chunk('{"content":"a"}', ',"usage":null') +
      chunk('{"content":"b"}', ',"obfuscation":"xyz"') +
      chunk('{"content":"c"}', ',"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}') +
      chunk('{"content":"d"}', ',"system_fingerprint":"fp_2"') +
      chunk('{"content":"e"}', ',"us\\u0061ge":{"prompt_tokens":4,"completion_tokens":5,"total_tokens":9}') +
      chunk('{"content":"f\\"g"}', ',"usage":null') +
      chunk('{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"n","arguments":"{}"}}]}', ',"usage":null') +
      'data: [DONE]\n\n';
    const f = fold([Buffer.from(text)]);
    expect(f.value()).to.deep.equal(chatFoldedPerEvent(text));
    expect(f.value()).to.nested.include({ 'choices[0].message.content': 'abcdef"g', 'usage.total_tokens': 9, system_fingerprint: 'fp_2' });
  });

  it('skips what it cannot fold instead of throwing: a choice that is not an object, a chunk that does not parse', () => {
    const text = fixtureText('recorded/openai/chat_completion_stream.txt');
    const events = text.split('\n\n');
    const broken = events[2]!.replace(/\}$/, '}}');
    const odd = [events[0], events[1], 'data: {"choices":[null]}', broken, ...events.slice(3)].join('\n\n');
    const f = fold([Buffer.from(odd)]);
    const expected = chatFoldedPerEvent([events[0], events[1], ...events.slice(3)].join('\n\n'));
    expect(f.value()).to.deep.equal(expected);
  });

  it('keeps what came before an error event', () => {
    const text = fixtureText('recorded/openai/chat_completion_stream.txt');
    const cut = text.indexOf('\n\n', 1000) + 2;
    const f = fold([Buffer.from(text.slice(0, cut) + 'data: {"error":{"message":"boom"}}\n\n')]);
    expect(f.value()).to.deep.equal(chatFoldedPerEvent(text.slice(0, cut)));
  });

  it('leaves other bodies as they are', () => {
    const body = { a: 1 };
    expect(resolvedBody(body)).to.equal(body);
    expect(resolvedBody(null)).to.equal(null);
  });
});
