import { expect } from 'chai';
import { badRequest } from '../errors.js';
import { fixtureText } from '../../test/helpers/fixtures.js';
import type { Usage } from '../types/usage.js';
import { ChatChunkStream } from './client-format-streams.js';
import type { StreamErrorReader } from './client-format-streams.js';
import { SseParser } from './sse-parser.js';
import type { StreamSink } from './translator.js';

class Collector implements StreamSink<unknown> {
  readonly emitted: Array<{ value: unknown; raw: string | undefined }> = [];
  usageSeen: Usage | null = null;
  emit(value: unknown, raw?: string): void {
    this.emitted.push({ value, raw });
  }
  usage(usage: Usage): void {
    this.usageSeen = usage;
  }
}

function translate(text: string, errorOf?: StreamErrorReader): Collector {
  const parser = new SseParser();
  const translator = new ChatChunkStream('test', undefined, errorOf);
  const sink = new Collector();
  parser.feed(Buffer.from(text, 'utf8'), translator, sink);
  parser.end(translator, sink);
  return sink;
}

describe('chat chunk stream translator', () => {
  for (const provider of ['openai', 'groq', 'xai']) {
    it(`hands on every chunk of a recorded ${provider} stream as its exact parse, with its own text`, () => {
      const text = fixtureText(`recorded/${provider}/chat_completion_stream.txt`);
      const expected = text.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]').map((l) => l.slice(6));
      const sink = translate(text);
      expect(sink.emitted.map((e) => e.raw)).to.deep.equal(expected);
      for (const { value, raw } of sink.emitted) expect(value).to.deep.equal(JSON.parse(raw!));
    });
  }

  const chunk = (delta: string, tail: string): string =>
    `data: {"id":"c","choices":[{"index":0,"delta":${delta},"finish_reason":null}]${tail}\n\n`;
  const USAGE = '{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12}';

  it('reports an error member that follows the choices of a chunk', () => {
    const stream = chunk('{"role":"assistant"}', '}') + chunk('{"content":"a"}', '}') + chunk('{"content":"b"}', ',"error":{"message":"overloaded","code":"busy"}}');
    expect(() => translate(stream)).to.throw('overloaded');
  });

  it('reads usage from a usage-only chunk and from a content chunk', () => {
    const own = translate(chunk('{"role":"assistant"}', '}') + chunk('{"content":"a"}', '}') + `data: {"id":"c","choices":[],"usage":${USAGE}}\n\n`);
    expect([own.usageSeen?.input_tokens, own.usageSeen?.output_tokens]).to.deep.equal([5, 7]);
    const inline = translate(chunk('{"role":"assistant"}', ',"usage":null}') + chunk('{"content":"a"}', `,"usage":${USAGE}}`));
    expect([inline.usageSeen?.input_tokens, inline.usageSeen?.output_tokens]).to.deep.equal([5, 7]);
  });

  it("hands each event to the provider's error reader; without one, another error shape is no chat chunk", () => {
    const odd = 'data: {"object":"error","message":"bad","code":400}\n\n';
    expect(() => translate(odd)).to.throw('not a chat chunk');
    const reader: StreamErrorReader = (event) => (event['object'] === 'error' ? badRequest(String(event['message'])) : null);
    expect(() => translate(odd, reader)).to.throw('bad');
  });
});
