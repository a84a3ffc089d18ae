import { expect } from 'chai';
import { usageOnlyEvents, withoutEvents } from './usage-events.js';

/** A stored stream: the events given, in order. */
function stream(parts: string[]): Buffer {
  return Buffer.from(parts.join(''));
}

describe('cache: usage-only chunks of a stored stream', () => {
  const content = 'data: {"choices":[{"index":0,"delta":{"content":"usage is the word"}}]}\n\n';
  const usage = 'data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}\n\n';
  const done = 'data: [DONE]\n\n';

  it('finds the usage-only chunk, not a content chunk that names usage, nor one that carries usage beside its choices', () => {
    const withUsage = 'data: {"choices":[{"index":0,"delta":{}}],"usage":{"total_tokens":3}}\n\n';
    const events = stream([content, withUsage, usage, done]);
    const start = content.length + withUsage.length;
    expect(usageOnlyEvents(events)).to.deep.equal([[start, start + usage.length]]);
    expect(withoutEvents(events, usageOnlyEvents(events)).toString()).to.equal(content + withUsage + done);
  });

  it('reads CRLF line endings, several data lines, an escaped key and many-byte characters with byte offsets', () => {
    const crlf = 'data: {"choices":[],\r\ndata: "usage":{"total_tokens":3}}\r\n\r\n';
    const escaped = 'data: {"choices":[],"us\\u0061ge":{"total_tokens":3}}\n\n';
    const wide = 'data: {"choices":[{"delta":{"content":"é日本"}}]}\n\n';
    const events = stream([wide, crlf, escaped, done]);
    const at = Buffer.byteLength(wide);
    expect(usageOnlyEvents(events)).to.deep.equal([
      [at, at + crlf.length],
      [at + crlf.length, at + crlf.length + escaped.length],
    ]);
    expect(withoutEvents(events, usageOnlyEvents(events)).toString()).to.equal(wide + done);
  });

  it('finds none in a stream without a usage chunk, or in a Responses stream', () => {
    const completed = 'event: response.completed\ndata: {"type":"response.completed","response":{"usage":{"input_tokens":1}}}\n\n';
    expect(usageOnlyEvents(stream([content, done]))).to.deep.equal([]);
    expect(usageOnlyEvents(stream([completed]))).to.deep.equal([]);
    const events = stream([content, done]);
    expect(withoutEvents(events, [])).to.equal(events);
  });
});
