import { expect } from 'chai';
import { fixtureText } from '../../test/helpers/fixtures.js';
import { ChunkTemplate } from './chunk-template.js';

/** The `data:` payloads of a recorded stream, [DONE] left out. */
function recordedData(provider: string): string[] {
  return fixtureText(`recorded/${provider}/chat_completion_stream.txt`)
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => line.slice(6));
}

function learnFrom(data: string): ChunkTemplate | null {
  return ChunkTemplate.learn(data);
}

const FIRST = '{"id":"c1","object":"chat.completion.chunk","created":7,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}';
const content = (delta: string, tail = ',"usage":null}'): string =>
  `{"id":"c1","object":"chat.completion.chunk","created":7,"model":"m","choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":null}]${tail}`;

describe('chat chunk template', () => {
  // xAI's `created` moves on each second: one template covers the chunks of its first seconds.
  for (const [provider, misses] of [['openai', 3], ['groq', 3], ['xai', 220]] as const) {
    it(`parses every chunk of a recorded ${provider} stream exactly as JSON.parse does, or declines`, () => {
      const data = recordedData(provider);
      const template = learnFrom(data[0]!);
      expect(template).to.not.equal(null);
      let matched = 0;
      for (const d of data.slice(1)) {
        const chunk = template!.parse(d);
        if (chunk === null) continue;
        matched++;
        expect(chunk).to.deep.equal(JSON.parse(d));
      }
      // Content chunks match; the finish and usage chunks are parsed whole.
      expect(matched).to.be.at.least(data.length - misses);
    });
  }

  it('takes per-chunk members after choices (OpenAI obfuscation, usage) from each chunk', () => {
    const template = learnFrom(content('{"role":"assistant"}', ',"obfuscation":"abc"}'))!;
    const d = content('{"content":"Hi"}', ',"obfuscation":"xyzzy","usage":{"prompt_tokens":1}}');
    expect(template.parse(d)).to.deep.equal(JSON.parse(d));
    const bare = content('{"content":"Hi"}', '}');
    expect(template.parse(bare)).to.deep.equal(JSON.parse(bare));
    const spaced = content('{"content":"Hi"}', ',"usage":null} ');
    expect(template.parse(spaced)).to.deep.equal(JSON.parse(spaced));
  });

  it('gives each chunk its own objects, even where chunks share the text after choices', () => {
    const template = learnFrom(content('{"role":"assistant"}', ',"x_meta":{"seed":1}}'))!;
    const d = content('{"content":"Hi"}', ',"x_meta":{"seed":1}}');
    const a = template.parse(d)!;
    const b = template.parse(d)!;
    expect(a).to.deep.equal(JSON.parse(d));
    expect((a as unknown as { x_meta: object }).x_meta).to.not.equal((b as unknown as { x_meta: object }).x_meta);
    expect(a.choices[0]).to.not.equal(b.choices[0]);
  });

  it('reads plain text tokens as JSON.parse does, and leaves anything else to it', () => {
    const template = learnFrom(FIRST)!;
    for (const delta of ['{"content":""}', '{"content":"a b c é 漢"}', '{"content":"x","role":"assistant"}', '{"content":"tab\\tin"}', '{ "content":"x"}', '{"content":"q\\"}"}']) {
      const d = content(delta);
      expect(template.parse(d), delta).to.deep.equal(JSON.parse(d));
    }
    // A raw control character is not JSON: declined, and the whole parse reports it.
    expect(template.parse(content('{"content":"raw\u0001control"}'))).to.equal(null);
  });

  it('keeps strings with braces, brackets, quotes and escapes inside the delta', () => {
    const template = learnFrom(FIRST)!;
    const d = content(String.raw`{"content":"} ] \" \\ {\n\u00e9"}`);
    expect(template.parse(d)).to.deep.equal(JSON.parse(d));
    const tools = content('{"tool_calls":[{"index":0,"function":{"arguments":"{\\"a\\":[1,{}]}"}}]}');
    expect(template.parse(tools)).to.deep.equal(JSON.parse(tools));
  });

  it('declines chunks whose surroundings differ: finish reason, other choice, other id', () => {
    const template = learnFrom(FIRST)!;
    expect(template.parse(content('{}').replace('"finish_reason":null', '"finish_reason":"stop"'))).to.equal(null);
    expect(template.parse(content('{"content":"x"}').replace('"index":0', '"index":1'))).to.equal(null);
    expect(template.parse(content('{"content":"x"}').replace('"id":"c1"', '"id":"c2"'))).to.equal(null);
    expect(template.parse(content('"text"'))).to.equal(null);
    expect(template.parse(content('{"content":"x"}', ',"usage":nul}'))).to.equal(null);
    expect(template.parse(content('{"content":"x"}', ''))).to.equal(null);
    expect(template.parse(content('{"content":"x"}', ',"usage":null}}'))).to.equal(null);
  });

  it('declines an error or a second choices member after choices, for the whole parse to judge', () => {
    const template = learnFrom(FIRST)!;
    expect(template.parse(content('{"content":"x"}', ',"error":{"message":"boom"}}'))).to.equal(null);
    expect(template.parse(content('{"content":"x"}', ',"choices":[]}'))).to.equal(null);
  });

  it('leaves a __proto__ member to the whole parse, which keeps it a plain member', () => {
    const template = learnFrom(FIRST)!;
    expect(template.parse(content('{"content":"x"}', ',"__proto__":{"polluted":true}}'))).to.equal(null);
  });

  it('takes the delta of the choice, never a look-alike elsewhere in the chunk', () => {
    for (const first of [
      '{"id":"c1","meta":{"delta":{"x":1},"choices":[]},"choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}',
      '{"id":"c1","object":"delta","note":"\\"delta\\":{}","choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}',
    ]) {
      const template = learnFrom(first)!;
      const next = first.replace('"delta":{"content":""}', '"delta":{"content":"x"}');
      expect(template.parse(next), next).to.deep.equal(JSON.parse(next));
    }
  });

  it('learns nothing from chunks without exactly one choice with a delta object', () => {
    expect(learnFrom('{"id":"c1","choices":[]}')).to.equal(null);
    expect(learnFrom('{"id":"c1","choices":[{"index":0,"delta":{}},{"index":1,"delta":{}}]}')).to.equal(null);
    expect(learnFrom('{"id":"c1","choices":[{"index":0,"delta":null}]}')).to.equal(null);
  });

  it('reads duplicate and escaped keys as JSON.parse does, or learns nothing', () => {
    const cases = [
      // A second delta after the first wins in a whole parse: no template.
      ['{"id":"c","choices":[{"index":0,"delta":{"content":""},"delta":{"x":1}}]}', false],
      // An escaped second "choices" in the head: no template.
      ['{"id":"c","ch\\u006fices":[],"choices":[{"index":0,"delta":{"content":""}}]}', false],
      ['{"id":"c","__proto__":{"p":1},"choices":[{"index":0,"delta":{"content":""}}]}', false],
      // An escaped delta before the real one is overwritten by it, as in a whole parse.
      ['{"id":"c","choices":[{"index":0,"d\\u0065lta":{"a":1},"delta":{"content":""}}]}', true],
      // A duplicate id after choices wins, as in a whole parse.
      ['{"id":"c","choices":[{"index":0,"delta":{"content":""}}],"id":"late"}', true],
      // Integer-like keys come first in a parse whatever their place: no matter here.
      ['{"7":1,"id":"c","choices":[{"index":0,"delta":{"content":""}}],"8":2}', true],
    ] as const;
    for (const [first, learns] of cases) {
      const template = learnFrom(first);
      expect(template !== null, first).to.equal(learns);
      if (template === null) continue;
      const next = first.replace('"delta":{"content":""}', '"delta":{"content":"next"}');
      expect(template.parse(next), next).to.deep.equal(JSON.parse(next));
      const noRest = next.replace(/\](,.*)?}$/, ']}');
      const parsed = template.parse(noRest);
      if (parsed !== null) expect(parsed, noRest).to.deep.equal(JSON.parse(noRest));
    }
  });

  it('learns from text with whitespace between the members', () => {
    const spaced = '{ "id": "c1", "choices": [ { "index": 0, "delta": { "content": "" }, "finish_reason": null } ] }';
    const template = learnFrom(spaced)!;
    expect(template).to.not.equal(null);
    const next = spaced.replace('{ "content": "" }', '{"content":"more"}');
    expect(template.parse(next)).to.deep.equal(JSON.parse(next));
  });
});
