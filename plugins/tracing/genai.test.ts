// What an answer says of itself, read for the attempt span: from the object when there is one,
// from the head and tail of the provider's own bytes when the answer is forwarded unparsed.
import { expect } from 'chai';
import { answerFacts } from './genai.js';

function chatAnswer(choices: number, content: string): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'gpt-4o-mini-2024-07-18',
    choices: Array.from({ length: choices }, (_, i) => ({ index: i, message: { role: 'assistant', content }, finish_reason: i === 0 ? 'length' : 'stop' })),
    usage: { prompt_tokens: 17, completion_tokens: 4, total_tokens: 21 },
  });
}

describe('tracing: the answer\'s model and finish reasons', () => {
  it('reads a short answer\'s bytes whole: the model and every choice\'s reason', () => {
    const raw = chatAnswer(2, 'Hello!');
    expect(answerFacts(Buffer.from(raw))).to.deep.equal({ model: 'gpt-4o-mini-2024-07-18', finishReasons: ['length', 'stop'] });
    expect(answerFacts(raw)).to.deep.equal({ model: 'gpt-4o-mini-2024-07-18', finishReasons: ['length', 'stop'] });
  });

  it('reads a long answer\'s model from its head and the reasons of the choices in its last 2 KB only', () => {
    const raw = Buffer.from(chatAnswer(3, 'x'.repeat(2500)));
    expect(raw.length).to.be.greaterThan(512 + 2048);
    expect(answerFacts(raw)).to.deep.equal({ model: 'gpt-4o-mini-2024-07-18', finishReasons: ['stop'] });
  });

  it('finds an embeddings list\'s model after its vectors', () => {
    const vectors = Array.from({ length: 300 }, (_, i) => Math.sin(i));
    const raw = JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: vectors }], model: 'text-embedding-3-small', usage: { prompt_tokens: 3, total_tokens: 3 } });
    expect(raw.length).to.be.greaterThan(512 + 2048);
    expect(answerFacts(Buffer.from(raw))).to.deep.equal({ model: 'text-embedding-3-small', finishReasons: [] });
  });

  it('reads a parsed answer\'s fields, and a Responses answer\'s status as its reason', () => {
    expect(answerFacts(JSON.parse(chatAnswer(1, 'Hi')) as unknown)).to.deep.equal({ model: 'gpt-4o-mini-2024-07-18', finishReasons: ['length'] });
    expect(answerFacts({ object: 'response', status: 'completed', model: 'o4-mini' })).to.deep.equal({ model: 'o4-mini', finishReasons: ['completed'] });
    expect(answerFacts(null)).to.deep.equal({ model: null, finishReasons: [] });
  });
});
