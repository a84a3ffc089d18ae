import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { MemberKey, lastObjectMember, lastStringMember, looksLikeJsonObject, memberValueAt, topLevelValueAt } from './json-member.js';

const b = (s: string): Buffer => Buffer.from(s, 'utf8');
const USAGE = new MemberKey('usage');

describe('lastObjectMember', () => {
  it('reads the usage of recorded OpenAI answers', () => {
    for (const name of ['chat_completion', 'chat_completion_reasoning', 'chat_with_tools', 'chat_multimodal', 'responses']) {
      const raw = readFileSync(new URL(`../test/fixtures/recorded/openai/${name}.json`, import.meta.url));
      expect(lastObjectMember(raw, USAGE), name).to.deep.equal((JSON.parse(raw.toString()) as { usage: unknown }).usage);
    }
  });
  it('skips an escaped occurrence inside a string and takes the real member', () => {
    const raw = b('{"choices":[{"message":{"content":"the \\"usage\\": {\\"x\\":1} text"}}],"usage":{"prompt_tokens":3,"note":"}{"}}');
    expect(lastObjectMember(raw, USAGE)).to.deep.equal({ prompt_tokens: 3, note: '}{' });
  });
  it('reads null, and whitespace around the colon', () => {
    expect(lastObjectMember(b('{"usage" :  null}'), USAGE)).to.equal(null);
    expect(lastObjectMember(b('{"usage"\n:\n{"a":{"b":[1,{"c":2}]}}}'), USAGE)).to.deep.equal({ a: { b: [1, { c: 2 }] } });
  });
  // The caller parses the whole body instead.
  const GIVES_UP: Array<[string, string]> = [
    ['absent', '{"id":"x"}'],
    ['not an object', '{"usage":5}'],
    ['cut off', '{"usage":{"a":1'],
    ['cut off in a string', '{"usage":{"a":"}'],
    ['cut off null', '{"usage":nul'],
    ['no value', '{"usage"'],
    ['outside the object', '{"a":1} "usage"'],
    // The last occurrence is not the top-level member: the whole body gives the top level.
    ['nested after the top-level one', '{"usage":{"a":1},"x":{"usage":{"b":2}}}'],
    ["in a tool's schema", '{"usage":{"input_tokens":5},"tools":[{"parameters":{"properties":{"usage":{"type":"string"}}}}]}'],
    ['in an array', '{"choices":[{"usage":{"a":1}}]}'],
    ['nested null', '{"x":{"usage":null}}'],
    ['no enclosing object', '"usage":{"a":1}'],
    ['a brace too many after it', '{"usage":{"a":1}}}'],
    ['text after the body', '{"usage":{"a":1}} x'],
    ['a string value after the member', '{"usage":{"a":1},"unit":"usage"}'],
    ['an array', '{"usage":[{"a":1}],"x":1}'],
    ['a string', '{"usage":"n/a"}'],
    ['true', '{"usage":true}'],
    ['nested after the top-level one, before text that is not JSON', '{"usage":{"a":1},"x":{"usage":{"b":2}},"y":NaN}'],
  ];
  for (const [name, text] of GIVES_UP) {
    it(`gives up (undefined): ${name}`, () => {
      expect(lastObjectMember(b(text), USAGE)).to.equal(undefined);
    });
  }
  it('takes the top-level member, also first in the object, and skips backslashes inside its strings', () => {
    expect(lastObjectMember(b('{"usage":{"a":1}}'), USAGE)).to.deep.equal({ a: 1 });
    expect(lastObjectMember(b('{"x":[1,{"y":"]}"}],"usage":{"b":"\\\\\\"}"},"z":[{}]} \n'), USAGE)).to.deep.equal({ b: '\\"}' });
  });
  it('handles multi-byte text before the member', () => {
    expect(lastObjectMember(b('{"content":"héllo ✓ 😀","usage":{"total_tokens":9}}'), USAGE)).to.deep.equal({ total_tokens: 9 });
  });
  it('handles multi-byte text in and after the member, and bytes that are not UTF-8', () => {
    expect(lastObjectMember(b('{"usage":{"note":"é ✓ 😀"},"x":"ü"}'), USAGE)).to.deep.equal({ note: 'é ✓ 😀' });
    const raw = Buffer.concat([b('{"usage":{"note":"'), Buffer.from([0xff]), b('"},"x":"'), Buffer.from([0xe2, 0x82]), b('"}')]);
    expect(lastObjectMember(raw, USAGE)).to.deep.equal({ note: '\ufffd' });
  });
  it('reads the member when what follows it is not JSON (a NaN from a Python server)', () => {
    expect(lastObjectMember(b('{"usage":{"prompt_tokens":3},"logprob":NaN}'), USAGE)).to.deep.equal({ prompt_tokens: 3 });
    expect(lastObjectMember(b('{"usage":{"a":1},"x":[-Infinity,]}'), USAGE)).to.deep.equal({ a: 1 });
    expect(lastObjectMember(b('{"usage":null,"logprob":NaN}'), USAGE)).to.equal(null);
  });
  it('takes the last of duplicate members as written, whatever an escaped spelling of the name says', () => {
    expect(lastObjectMember(b('{"usage":{"a":1},"usage":{"b":2}}'), USAGE)).to.deep.equal({ b: 2 });
    expect(lastObjectMember(b('{"usage":{"a":1},"\\u0075sage":{"b":2}}'), USAGE)).to.deep.equal({ a: 1 });
  });
  it('reads the member with escapes after it and whitespace after the body', () => {
    expect(lastObjectMember(b('{"usage":{"note":"a \\"q\\" }"},"x":"\\\\"}'), USAGE)).to.deep.equal({ note: 'a "q" }' });
    expect(lastObjectMember(b('{"usage":{"a":1}} \r\n\t'), USAGE)).to.deep.equal({ a: 1 });
    expect(lastObjectMember(b('{"usage" : null , "x" : {} }\n'), USAGE)).to.equal(null);
  });
  it('reads the member with a long tail after it', () => {
    const items = Array.from({ length: 100 }, (_, i) => `{"id":${i}}`).join(',');
    expect(lastObjectMember(b(`{"usage":{"a":1},"items":[${items}]}`), USAGE)).to.deep.equal({ a: 1 });
    expect(lastObjectMember(b(`{"usage":{"a":1},"items":[${items}],"x":{"usage":{"b":2}}}`), USAGE)).to.equal(undefined);
  });
});

describe('MemberKey', () => {
  it('finds the same occurrences as Buffer.lastIndexOf', () => {
    // Bytes drawn from the name's own letters, quotes and a few others exercise every shift.
    const alphabet = b('"usage" :{}xé');
    let seed = 7;
    const next = (): number => (seed = (seed * 48271) % 2147483647);
    for (let round = 0; round < 300; round++) {
      const raw = Buffer.alloc(next() % 80);
      for (let i = 0; i < raw.length; i++) raw[i] = alphabet[next() % alphabet.length]!;
      for (let from = raw.length + 1; from >= -1; from--) {
        expect(USAGE.lastIn(raw, from), `${raw.toString('latin1')} from ${from}`).to.equal(from < 0 ? -1 : raw.lastIndexOf(USAGE.quoted, from));
      }
    }
  });
  it('gives where the value starts, past the colon and whitespace', () => {
    const raw = b('{"usage" \n: \t{}}');
    expect(memberValueAt(raw, 1, USAGE)).to.equal(raw.indexOf('{', 1));
    expect(memberValueAt(b('{"usage","x"}'), 1, USAGE)).to.equal(-1);
  });
});

describe('lastStringMember', () => {
  const TIER = new MemberKey('service_tier');
  it("reads OpenAI's top-level service_tier after the usage", () => {
    const raw = readFileSync(new URL('../test/fixtures/recorded/openai/chat_completion.json', import.meta.url));
    expect(lastStringMember(raw, TIER)).to.equal('default');
  });
  it('takes no nested member, no escaped text and no member that is not a string', () => {
    expect(lastStringMember(b('{"service_tier":"flex","x":{"service_tier":"priority"}}'), TIER)).to.equal(undefined);
    expect(lastStringMember(b('{"service_tier":"fl\\"ex"}'), TIER)).to.equal(undefined);
    expect(lastStringMember(b('{"service_tier":null}'), TIER)).to.equal(undefined);
    expect(lastStringMember(b('{"a":"\\"service_tier\\":\\"flex\\""}'), TIER)).to.equal(undefined);
    expect(lastStringMember(b('{"a":1, "service_tier" : "priority" }'), TIER)).to.equal('priority');
  });
});

describe('topLevelValueAt', () => {
  const ERROR = new MemberKey('error');
  /** The value's text from where it starts, or null when there is no top-level member. */
  const valueOf = (text: string): string | null => {
    const at = topLevelValueAt(b(text), ERROR);
    return at === -1 ? null : text.slice(at);
  };

  it('finds the top-level member wherever it is, whitespace and all', () => {
    expect(valueOf('{"error":{"message":"x"}}')).to.equal('{"message":"x"}}');
    expect(valueOf('{"id":"r","object":"response","error" : null,"output":[]}')).to.equal('null,"output":[]}');
    expect(valueOf('{"a":{"b":[1,"}"]},"error":"down"}')).to.equal('"down"}');
  });

  it('takes no nested member, no string value and no text inside a string', () => {
    const none = [
      '{"id":"x"}',
      '{"choices":[{"error":{"message":"x"}}]}',
      '{"x":{"error":null}}',
      '{"type":"error","message":"x"}',
      '{"content":"\\"error\\": 1"}',
      '{"content":"\\"error","n":1}',
      '{"content":"a\\"}","x":{"error":1}}',
    ];
    expect(none.map(valueOf)).to.deep.equal(none.map(() => null));
  });

  it('reads past nested and string occurrences to the top-level one', () => {
    expect(valueOf('{"x":{"error":1},"type":"error","error":2}')).to.equal('2}');
  });

  it('finds the `"error": null` of a recorded Responses answer, and nothing in recorded chat answers', () => {
    const read = (name: string) => readFileSync(new URL(`../test/fixtures/recorded/openai/${name}.json`, import.meta.url));
    const responses = read('responses');
    expect(responses.toString('latin1', topLevelValueAt(responses, ERROR), topLevelValueAt(responses, ERROR) + 4)).to.equal('null');
    for (const name of ['chat_completion', 'chat_completion_reasoning', 'chat_with_tools', 'chat_multimodal']) expect(topLevelValueAt(read(name), ERROR), name).to.equal(-1);
  });
});

describe('looksLikeJsonObject', () => {
  it('accepts an object with surrounding whitespace and rejects the rest', () => {
    expect(looksLikeJsonObject(b('  {"a":1}\n'))).to.equal(true);
    expect(looksLikeJsonObject(b('<html>oops</html>'))).to.equal(false);
    expect(looksLikeJsonObject(b('[1]'))).to.equal(false);
    expect(looksLikeJsonObject(b(''))).to.equal(false);
  });
});
