import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { lastObjectMember, looksLikeJsonObject } from './json-member.js';

const b = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('lastObjectMember', () => {
  it('reads the usage of a recorded OpenAI completion', () => {
    const raw = readFileSync(new URL('../test/fixtures/recorded/openai/chat_completion.json', import.meta.url));
    expect(lastObjectMember(raw, 'usage')).to.deep.equal((JSON.parse(raw.toString()) as { usage: unknown }).usage);
  });
  it('skips an escaped occurrence inside a string and takes the real member', () => {
    const raw = b('{"choices":[{"message":{"content":"the \\"usage\\": {\\"x\\":1} text"}}],"usage":{"prompt_tokens":3,"note":"}{"}}');
    expect(lastObjectMember(raw, 'usage')).to.deep.equal({ prompt_tokens: 3, note: '}{' });
  });
  it('reads null, and whitespace around the colon', () => {
    expect(lastObjectMember(b('{"usage" :  null}'), 'usage')).to.equal(null);
    expect(lastObjectMember(b('{"usage"\n:\n{"a":{"b":[1,{"c":2}]}}}'), 'usage')).to.deep.equal({ a: { b: [1, { c: 2 }] } });
  });
  it('gives up (undefined) when the member is absent, not an object, or cut off', () => {
    expect(lastObjectMember(b('{"id":"x"}'), 'usage')).to.equal(undefined);
    expect(lastObjectMember(b('{"usage":5}'), 'usage')).to.equal(undefined);
    expect(lastObjectMember(b('{"usage":{"a":1'), 'usage')).to.equal(undefined);
  });
  it('handles multi-byte text before the member', () => {
    expect(lastObjectMember(b('{"content":"héllo ✓ 😀","usage":{"total_tokens":9}}'), 'usage')).to.deep.equal({ total_tokens: 9 });
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
