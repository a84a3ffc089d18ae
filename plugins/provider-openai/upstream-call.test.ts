import { expect } from 'chai';
import { usageMember } from './upstream-call.js';

const b = (s: string): Buffer => Buffer.from(s, 'utf8');

describe('provider-openai usageMember', () => {
  it("takes the answer's top-level usage, not a later one nested in a tool's schema", () => {
    const body = b('{"id":"resp_1","usage":{"input_tokens":5,"output_tokens":2,"total_tokens":7},"tools":[{"type":"function","name":"f","parameters":{"type":"object","properties":{"usage":{"type":"string"}}}}]}');
    expect(usageMember('openai', body)).to.deep.equal({ input_tokens: 5, output_tokens: 2, total_tokens: 7 });
  });

  it('finds none when the only usage is nested', () => {
    expect(usageMember('openai', b('{"id":"c","choices":[{"index":0,"usage":{"prompt_tokens":3}}]}'))).to.equal(null);
  });

  it('reads the usage of an answer that is not JSON elsewhere from its own bytes', () => {
    const body = b('{"choices":[{"logprobs":{"content":[{"logprob":-Infinity}]}}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}');
    expect(usageMember('openai', body)).to.deep.equal({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });
});
