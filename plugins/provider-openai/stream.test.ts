import { expect } from 'chai';
import { isGatewayError } from '../../core/errors.js';
import { streamError } from './stream.js';

describe('provider-openai stream errors', () => {
  it("reads vLLM's error event with its status, and OpenAI's error member", () => {
    const vllm = streamError({ object: 'error', message: 'context too long', type: 'BadRequestError', code: 400 }, 'vllm');
    expect(isGatewayError(vllm) && [vllm.status, vllm.message, vllm.provider]).to.deep.equal([400, 'context too long', 'vllm']);
    const openai = streamError({ error: { message: 'overloaded', code: 'busy' } }, 'openai');
    expect(isGatewayError(openai) && [openai.status, openai.message, openai.code]).to.deep.equal([502, 'overloaded', 'busy']);
  });

  it('gives a status outside 400-599 as 502, and a chunk no error', () => {
    expect(streamError({ object: 'error', message: 'x', code: 200 }, 'vllm')?.status).to.equal(502);
    expect(streamError({ object: 'chat.completion.chunk', choices: [] }, 'vllm')).to.equal(null);
  });
});
