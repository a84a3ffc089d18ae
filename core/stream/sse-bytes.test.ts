import { expect } from 'chai';
import { eventEnd, eventStart, lastEventEnd } from './sse-bytes.js';

const b = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('SSE event boundaries in bytes', () => {
  it('finds the end of the last whole event, LF or CRLF, and -1 when none ended', () => {
    expect(lastEventEnd(b('data: a\n\ndata: b\n\n'))).to.equal(18);
    expect(lastEventEnd(b('data: a\n\ndata: b'))).to.equal(9);
    expect(lastEventEnd(b('data: a\r\n\r\ndata: b\r\n'))).to.equal(11);
    expect(lastEventEnd(b('data: a\n'))).to.equal(-1);
    expect(lastEventEnd(b(''))).to.equal(-1);
  });

  it('finds the event around a byte, whatever the line endings', () => {
    const text = b(': ping\n\ndata: {"usage":{}}\r\n\r\ndata: [DONE]\n\n');
    const at = text.indexOf('usage');
    expect(text.subarray(eventStart(text, at), eventEnd(text, at)).toString()).to.equal('data: {"usage":{}}\r\n\r\n');
    expect(eventStart(text, 2)).to.equal(0);
    const done = text.indexOf('[DONE]');
    expect(text.subarray(eventStart(text, done), eventEnd(text, done)).toString()).to.equal('data: [DONE]\n\n');
  });

  it('runs an event that never ends to the end of the bytes', () => {
    const text = b('data: a\n\ndata: {"error"');
    expect(eventEnd(text, text.indexOf('error'))).to.equal(text.length);
    expect(eventStart(text, text.indexOf('error'))).to.equal(9);
  });
});
