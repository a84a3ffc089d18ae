import { expect } from 'chai';
import { plainContentDelta } from './content-delta.js';

const chunk = (delta: string, extra = '') =>
  `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":null}]${extra}}`;

describe('plainContentDelta', () => {
  it('reads the text of a plain content delta', () => {
    expect(plainContentDelta(chunk('{"content":" World"}'))).to.equal(' World');
  });
  it('unescapes quotes, backslashes and unicode escapes', () => {
    expect(plainContentDelta(chunk('{"content":"say \\"hi\\" \\\\ \\u00e9\\n"}'))).to.equal('say "hi" \\ é\n');
  });
  it('keeps a text that itself contains "content":"', () => {
    expect(plainContentDelta(chunk('{"content":"\\"content\\":\\"x"}'))).to.equal('"content":"x');
  });
  it('falls back for roles, tool calls, finish reasons, usage, reasoning and several choices', () => {
    expect(plainContentDelta(chunk('{"role":"assistant","content":""}'))).to.equal(null);
    expect(plainContentDelta(chunk('{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}'))).to.equal(null);
    expect(plainContentDelta(chunk('{"content":"x"}').replace('"finish_reason":null', '"finish_reason":"stop"'))).to.equal(null);
    expect(plainContentDelta(chunk('{"content":"x"}', ',"usage":{"prompt_tokens":1}'))).to.equal(null);
    expect(plainContentDelta(chunk('{"content":"x","reasoning_content":"y"}'))).to.equal(null);
    expect(plainContentDelta(chunk('{"content":"x"}').replace('"index":0', '"index":1'))).to.equal(null);
    expect(plainContentDelta('{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null},{"index":1,"delta":{"content":"b"},"finish_reason":null}]}')).to.equal(null);
  });
  it('falls back when there is no content', () => {
    expect(plainContentDelta(chunk('{}'))).to.equal(null);
  });
  it('keeps a usage field that is null on every chunk (include_usage streams)', () => {
    expect(plainContentDelta(chunk('{"content":"x"}', ',"usage":null'))).to.equal('x');
  });
});
