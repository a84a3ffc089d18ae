import { expect } from 'chai';
import { fixtureText } from '../../test/helpers/fixtures.js';
import { SseParser } from './sse-parser.js';
import type { SseEvent, StreamSink, StreamTranslator } from './translator.js';

/** A translator that only records what the parser hands it. */
class Recorder implements StreamTranslator<unknown> {
  readonly events: SseEvent[] = [];
  onEvent(event: SseEvent): void {
    this.events.push({ ...event });
  }
  onEnd(): void {}
}

const NO_SINK: StreamSink<unknown> = { emit() {}, usage() {} };

/** Parses `chunks` fed one after the other, then the end of the source. */
function parse(chunks: Array<Buffer | string>): SseEvent[] {
  const parser = new SseParser();
  const recorder = new Recorder();
  for (const chunk of chunks) parser.feed(chunk, recorder, NO_SINK);
  parser.end(recorder, NO_SINK);
  return recorder.events;
}

const RECORDED = Buffer.from(fixtureText('recorded/openai/chat_completion_stream.txt'), 'utf8');
const RECORDED_RESPONSES = Buffer.from(fixtureText('recorded/openai/responses_stream.txt'), 'utf8');

describe('SSE parser', () => {
  it('parses a recorded OpenAI chat stream into its events', () => {
    const events = parse([RECORDED]);
    expect(events.length).to.be.greaterThan(3);
    expect(events[events.length - 1]).to.deep.equal({ event: undefined, data: '[DONE]' });
    for (const e of events.slice(0, -1)) expect(JSON.parse(e.data)).to.have.property('object', 'chat.completion.chunk');
  });

  it('gives the same events whatever byte the stream is split at', () => {
    const whole = parse([RECORDED]);
    for (let i = 1; i < RECORDED.length; i++) {
      expect(parse([RECORDED.subarray(0, i), RECORDED.subarray(i)]), `split at ${i}`).to.deep.equal(whole);
    }
  });

  it('gives the same events fed one byte at a time (Responses stream, with event: lines)', () => {
    const whole = parse([RECORDED_RESPONSES]);
    expect(whole[0]!.event).to.equal('response.created');
    const bytes: Buffer[] = [];
    for (let i = 0; i < RECORDED_RESPONSES.length; i++) bytes.push(RECORDED_RESPONSES.subarray(i, i + 1));
    expect(parse(bytes)).to.deep.equal(whole);
  });

  it('accepts CRLF line endings, split at every position', () => {
    const crlf = Buffer.from(RECORDED.toString('utf8').replace(/\n/g, '\r\n'), 'utf8');
    const whole = parse([RECORDED]);
    expect(parse([crlf])).to.deep.equal(whole);
    for (let i = 1; i < crlf.length; i += 7) expect(parse([crlf.subarray(0, i), crlf.subarray(i)]), `split at ${i}`).to.deep.equal(whole);
  });

  it('joins multi-line data with \\n and keeps the event field', () => {
    expect(parse(['event: message\ndata: line one\ndata: line two\ndata:\ndata: four\n\n'])).to.deep.equal([
      { event: 'message', data: 'line one\nline two\n\nfour' },
    ]);
  });

  it('drops one space after the colon, not more; a line without a colon is a field with an empty value', () => {
    expect(parse(['data:tight\n\n', 'data:  two spaces\n\n', 'data\n\n'])).to.deep.equal([
      { event: undefined, data: 'tight' },
      { event: undefined, data: ' two spaces' },
      { event: undefined, data: '' },
    ]);
  });

  it('ignores comments, unknown fields, and blank lines without data', () => {
    expect(parse([': keep-alive\n\n', 'id: 7\nretry: 100\n\n', '\n\n', ': ping\ndata: x\n: again\n\n'])).to.deep.equal([{ event: undefined, data: 'x' }]);
  });

  it('forgets an event field of a dispatch without data', () => {
    expect(parse(['event: ping\n\n', 'data: y\n\n'])).to.deep.equal([{ event: undefined, data: 'y' }]);
  });

  it('keeps a UTF-8 character split across chunks', () => {
    const text = Buffer.from('data: {"content":"héllo 🎉 世界"}\n\n', 'utf8');
    const emoji = text.indexOf(Buffer.from('🎉', 'utf8'));
    for (const at of [emoji + 1, emoji + 2, emoji + 3, text.indexOf(Buffer.from('é', 'utf8')) + 1]) {
      expect(parse([text.subarray(0, at), text.subarray(at)])).to.deep.equal([{ event: undefined, data: '{"content":"héllo 🎉 世界"}' }]);
    }
  });

  it('dispatches a final event that lacks its blank line when the source ends', () => {
    expect(parse(['data: first\n\n', 'data: last'])).to.deep.equal([
      { event: undefined, data: 'first' },
      { event: undefined, data: 'last' },
    ]);
    expect(parse(['data: last\n'])).to.deep.equal([{ event: undefined, data: 'last' }]);
    expect(parse(['data: last\r\n'])).to.deep.equal([{ event: undefined, data: 'last' }]);
  });

  it('dispatches each event as soon as its blank line arrives, not at the end', () => {
    const parser = new SseParser();
    const recorder = new Recorder();
    parser.feed('data: a\n\ndata: b\n', recorder, NO_SINK);
    expect(recorder.events.map((e) => e.data)).to.deep.equal(['a']);
    parser.feed('\n', recorder, NO_SINK);
    expect(recorder.events.map((e) => e.data)).to.deep.equal(['a', 'b']);
  });

  it('hands the sink to the translator, and lets the translator stop the stream by throwing', () => {
    const parser = new SseParser();
    const thrower: StreamTranslator<unknown> = {
      onEvent(event, sink) {
        if (event.data === 'bad') throw new Error('provider error in stream');
        sink.emit(event.data);
      },
      onEnd() {},
    };
    const emitted: unknown[] = [];
    const sink: StreamSink<unknown> = { emit: (v) => emitted.push(v), usage() {} };
    expect(() => parser.feed('data: ok\n\ndata: bad\n\ndata: never\n\n', thrower, sink)).to.throw('provider error in stream');
    expect(emitted).to.deep.equal(['ok']);
  });

  it('gives the text of a chunk that stood alone, and nothing for one that carried over or left over', () => {
    const parser = new SseParser();
    const recorder = new Recorder();
    parser.feed(Buffer.from('data: a\n\ndata: b\n\n'), recorder, NO_SINK);
    expect(parser.whole).to.equal('data: a\n\ndata: b\n\n');
    parser.feed(Buffer.from('data: c\n\ndata: d'), recorder, NO_SINK);
    expect(parser.whole).to.equal(null);
    parser.feed(Buffer.from('\n\n'), recorder, NO_SINK);
    expect(parser.whole).to.equal(null);
    const e = Buffer.from('data: é\n\n');
    const at = e.indexOf(0xc3);
    parser.feed(e.subarray(0, at + 1), recorder, NO_SINK);
    expect(parser.whole).to.equal(null);
    parser.feed(e.subarray(at + 1), recorder, NO_SINK);
    expect(parser.whole).to.equal(null);
    parser.feed(Buffer.from('data: f\n\n'), recorder, NO_SINK);
    expect(parser.whole).to.equal('data: f\n\n');
    expect(recorder.events.map((ev) => ev.data)).to.deep.equal(['a', 'b', 'c', 'd', 'é', 'f']);
  });
});
