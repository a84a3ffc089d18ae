import { expect } from 'chai';
import type { RequestContext } from '../../core/context.js';
import type { OperationHandler, Target } from '../../core/provider.js';
import { jsonReply } from '../../core/reply.js';
import { withoutStreamOptions } from './without-stream-options.js';

const target = {} as unknown as Target;

function contextWith(body: Record<string, unknown>): RequestContext {
  return { body } as unknown as RequestContext;
}

describe('provider-openai-compatible: stream_options kept from servers that reject it', () => {
  it('hides the client stream_options from the upstream call and puts it back afterwards', async () => {
    const options = { include_usage: true };
    const body: Record<string, unknown> = { model: 'mistral/mistral-small-latest', stream: true, stream_options: options };
    let seen: string | null = null;
    const handler: OperationHandler = async (c) => {
      seen = JSON.stringify(c.body);
      return jsonReply({});
    };
    await withoutStreamOptions(handler)(contextWith(body), target);
    expect(seen).to.equal('{"model":"mistral/mistral-small-latest","stream":true}');
    expect(body['stream_options']).to.equal(options);
  });

  it('puts it back when the upstream call fails too', async () => {
    const body: Record<string, unknown> = { stream_options: { include_usage: false } };
    const handler: OperationHandler = async () => {
      throw new Error('upstream down');
    };
    let failure: unknown = null;
    await withoutStreamOptions(handler)(contextWith(body), target).catch((err: unknown) => (failure = err));
    expect((failure as Error).message).to.equal('upstream down');
    expect(body['stream_options']).to.deep.equal({ include_usage: false });
  });

  it('does not add the key to a body that had none', async () => {
    const body: Record<string, unknown> = { stream: true };
    await withoutStreamOptions(async () => jsonReply({}))(contextWith(body), target);
    expect(Object.keys(body)).to.deep.equal(['stream']);
  });
});
