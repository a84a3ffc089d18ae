import { expect } from 'chai';
import { chatFoldedPerEvent } from '../../test/helpers/sse.js';
import { ChatFold } from './chat-fold.js';
import { ContentTemplate } from './content-template.js';

const event = (json: string): string => `data: ${json}\n\n`;

/** The first chunk teaches the template; the others must fold as JSON.parse reads them. */
function foldsLikeParse(first: string, ...rest: string[]): void {
  const text = [first, ...rest].map(event).join('');
  const fold = new ChatFold();
  fold.add(Buffer.from(text));
  expect(fold.value()).to.deep.equal(chatFoldedPerEvent(text));
}

describe('content template', () => {
  const head = '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":';

  it("takes a plain token's text from a chunk that repeats the learned one around it", () => {
    const template = ContentTemplate.learn(`${head}{"role":"assistant"},"finish_reason":null}],"usage":null}`)!;
    expect(template.contentOf(`${head}{"content":"Hello"},"finish_reason":null}],"usage":null}`)).to.equal('Hello');
    expect(template.contentOf(`${head}{"content":"a\\nb"},"finish_reason":null}],"usage":null}`)).to.equal(null);
    expect(template.contentOf(`${head}{"content":"x"},"finish_reason":"stop"}],"usage":null}`)).to.equal(null);
    expect(template.contentOf(`${head}{"content":"x"},"finish_reason":null}],"usage":{"total_tokens":1}}`)).to.equal(null);
    expect(template.contentOf(`${head}{"content":"x"},"finish_reason":null}],"obfuscation":"abc"}`)).to.equal('x');
    expect(template.contentOf(`${head}{"content":"x"},"finish_reason":null}],"usage":null}}`)).to.equal(null);
  });

  it('refuses to learn where a later duplicate key would win in a parse', () => {
    expect(ContentTemplate.learn(`${head}{"content":""},"delta":{"content":"z"},"finish_reason":null}]}`)).to.equal(null);
    expect(ContentTemplate.learn(`${head}{"content":""},"d\\u0065lta":{"content":"z"}}]}`)).to.equal(null);
    expect(ContentTemplate.learn(`${head}{"content":""}}],"choices":[]}`)).to.equal(null);
    expect(ContentTemplate.learn(`${head}{"content":""}}],"ch\\u006fices":[]}`)).to.equal(null);
  });

  it('folds every tricky stream as JSON.parse reads it', () => {
    const chunk = (delta: string, tail = '"finish_reason":null}]', rest = '}'): string => `${head}${delta},${tail}${rest}`;
    foldsLikeParse(chunk('{"role":"assistant"}'), chunk('{"content":"a"}'), chunk('{"content":"b"}'));
    // A duplicate index after the delta: the parse reads 1, and so must the fold.
    const dup = (delta: string): string => `${head}${delta},"index":1,"finish_reason":null}]}`;
    foldsLikeParse(dup('{"role":"assistant"}'), dup('{"content":"a"}'), dup('{"content":"b"}'));
    // An escaped key before the real choices: the literal one comes later and wins.
    const esc = (delta: string): string => `{"id":"c","ch\\u006fices":[],"choices":[{"index":0,"delta":${delta},"finish_reason":null}]}`;
    foldsLikeParse(esc('{"role":"assistant"}'), esc('{"content":"a"}'), esc('{"content":"b"}'));
    // Trailing members that do and do not change the fold.
    foldsLikeParse(chunk('{"role":"assistant"}', undefined, ',"usage":null}'), chunk('{"content":"a"}', undefined, ',"system_fingerprint":"fp"}'), chunk('{"content":"b"}', undefined, ',"x":1}'));
  });
});
