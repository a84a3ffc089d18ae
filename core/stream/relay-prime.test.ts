// Priming a relay: the stream is read up to its first output for the client, which is held
// (nothing written, not even the head) until the relay runs; a failure before any output rejects
// the priming and stops the upstream call, so that another target may still answer.
import { expect } from 'chai';
import type { Dispatcher } from 'undici';
import { chatContext } from '../../test/helpers/relay-context.js';
import { isGatewayError } from '../errors.js';
import { streamReply } from '../reply.js';
import { SecretText } from '../secret-text.js';
import { UpstreamBody } from '../upstream-body.js';
import { chatStreamFormat } from './chat-format.js';
import { ChatChunkStream } from './client-format-streams.js';
import { openRelay } from './relay.js';
import { StreamCopy } from './stream-copy.js';

const FIRST = chunkEvent('Hel');
const SECOND = chunkEvent('lo');
const DONE_EVENT = 'data: [DONE]\n\n';
const ERROR_EVENT = 'data: {"error":{"message":"the model is overloaded","type":"server_error","code":"overloaded"}}\n\n';
const USAGE_EVENT = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":17,"completion_tokens":0,"total_tokens":17}}\n\n';

function chunkEvent(content: string): string {
  return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
}

/** An upstream body whose call records the reason it was aborted with. */
function upstreamBody(): { body: UpstreamBody; aborted: () => Error | null } {
  let reason: Error | null = null;
  const controller = { paused: false, aborted: false, reason: null, pause() {}, resume() {}, abort(err: Error) { reason = err; } };
  const body = new UpstreamBody('openai');
  body.attach(controller as unknown as Dispatcher.DispatchController);
  return { body, aborted: () => reason };
}

/** A relay over `source` for a chat stream request. */
function opened(source: AsyncIterable<Buffer | string>, copy: StreamCopy | null = null) {
  const { ctx, res } = chatContext(false, copy);
  const relay = openRelay(ctx, streamReply(source, new ChatChunkStream('openai')), chatStreamFormat, new SecretText([]), 'openai');
  return { ctx, res, relay };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('stream relay priming', () => {
  it('holds the first output until it runs, then writes it with what came meanwhile, in one write', async () => {
    const { body } = upstreamBody();
    const { ctx, res, relay } = opened(body);
    const primed = relay.prime();
    body.push(Buffer.from(FIRST));
    await primed;
    expect([res.writes, res.headersSent, ctx.firstByteMs]).to.deep.equal([[], false, null]);
    body.push(Buffer.from(SECOND + DONE_EVENT));
    body.finish();
    expect(res.writes).to.deep.equal([]);
    await relay.run(null);
    expect([res.writes, res.writableEnded, ctx.status]).to.deep.equal([[FIRST + SECOND + DONE_EVENT], true, 200]);
  });

  it('rejects when the first event is an error: nothing written, the upstream call aborted', async () => {
    const { body, aborted } = upstreamBody();
    const { res, relay } = opened(body);
    const primed = relay.prime();
    body.push(Buffer.from(ERROR_EVENT));
    const err = await rejection(primed);
    expect(isGatewayError(err) && [err.status, err.message, err.code, err.provider]).to.deep.equal([502, 'the model is overloaded', 'overloaded', 'openai']);
    expect([res.writes, res.headersSent, aborted()]).to.deep.equal([[], false, err]);
  });

  it('rejects when the connection breaks before any output, and keeps the usage the provider reported', async () => {
    const { body, aborted } = upstreamBody();
    const { ctx, res, relay } = opened(body);
    const primed = relay.prime();
    // A usage chunk the client did not ask for is no output.
    body.push(Buffer.from(USAGE_EVENT));
    await Promise.resolve();
    const broken = new Error('socket closed');
    body.fail(broken);
    const err = await rejection(primed);
    expect(isGatewayError(err) && [err.status, err.retryable]).to.deep.equal([502, true]);
    expect([res.writes, aborted(), ctx.usage?.input_tokens]).to.deep.equal([[], null, 17]);
  });

  it('drops what a failed priming put in the stream copy (a hidden usage chunk)', async () => {
    const copy = new StreamCopy(10_000);
    const { body } = upstreamBody();
    const { relay } = opened(body, copy);
    const primed = relay.prime();
    body.push(Buffer.from(USAGE_EVENT + ERROR_EVENT));
    await rejection(primed);
    expect([copy.text(), copy.overflowed]).to.deep.equal([null, false]);
  });

  it('resolves on a stream with output then an error: run writes the output, then the error event last', async () => {
    const { body } = upstreamBody();
    const { res, relay } = opened(body);
    const primed = relay.prime();
    body.push(Buffer.from(FIRST + ERROR_EVENT));
    await primed;
    expect(res.writes).to.deep.equal([]);
    await relay.run(null);
    expect(res.writes).to.have.length(2);
    expect(res.writes[0]).to.equal(FIRST);
    expect(JSON.parse(res.writes[1]!.replace(/^data: /, ''))).to.deep.equal({ error: { message: 'the model is overloaded', type: 'provider_error', code: 'overloaded', param: null, provider: 'openai' } });
  });

  it('resolves on a stream that ended without any event: run writes the head and the trailer', async () => {
    const { body } = upstreamBody();
    const { res, relay } = opened(body);
    const primed = relay.prime();
    body.finish();
    await primed;
    expect([res.writes, res.headersSent]).to.deep.equal([[], false]);
    await relay.run(null);
    expect([res.writes, res.writableEnded]).to.deep.equal([[DONE_EVENT], true]);
  });

  it('stops an in-process source whose first event is an error (its generator is closed)', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<string> {
      try {
        yield ERROR_EVENT;
        yield FIRST;
      } finally {
        closed = true;
      }
    }
    const { res, relay } = opened(source());
    const err = await rejection(relay.prime());
    await new Promise((resolve) => setImmediate(resolve));
    expect([isGatewayError(err) && err.message, res.writes, closed]).to.deep.equal(['the model is overloaded', [], true]);
  });

  it('cancelled before it runs: the upstream call aborted, its copy dropped, nothing written, and run() refuses', async () => {
    const copy = new StreamCopy(10_000);
    const { body, aborted } = upstreamBody();
    const { res, relay } = opened(body, copy);
    const primed = relay.prime();
    body.push(Buffer.from(FIRST));
    await primed;
    relay.cancel();
    body.push(Buffer.from(SECOND));
    expect([aborted()?.message, copy.text(), res.writes]).to.deep.equal(['the primed stream was not sent', null, []]);
    expect(((await rejection(relay.run(null))) as Error).message).to.equal('a primed stream was sent after it was cancelled (by a later invoke)');
    expect(res.writes).to.deep.equal([]);
  });

  it('is not cancelled once it runs', async () => {
    const { body, aborted } = upstreamBody();
    const { res, relay } = opened(body);
    const primed = relay.prime();
    body.push(Buffer.from(FIRST));
    await primed;
    const running = relay.run(null);
    relay.cancel();
    body.push(Buffer.from(DONE_EVENT));
    body.finish();
    await running;
    expect([aborted(), res.writes.join('')]).to.deep.equal([null, FIRST + DONE_EVENT]);
  });

  it('stops an in-process source waiting for run() when cancelled (its generator is closed)', async () => {
    let closed = false;
    async function* source(): AsyncGenerator<string> {
      try {
        for (const event of [FIRST, SECOND, DONE_EVENT]) yield event;
      } finally {
        closed = true;
      }
    }
    const { res, relay } = opened(source());
    await relay.prime();
    await new Promise((resolve) => setImmediate(resolve));
    relay.cancel();
    await new Promise((resolve) => setImmediate(resolve));
    expect([closed, res.writes]).to.deep.equal([true, []]);
  });

  it('reads an in-process source no further than its first output until it runs', async () => {
    const pulled: string[] = [];
    async function* source(): AsyncGenerator<string> {
      for (const event of [FIRST, SECOND, DONE_EVENT]) {
        pulled.push(event);
        yield event;
      }
    }
    const { res, relay } = opened(source());
    await relay.prime();
    await new Promise((resolve) => setImmediate(resolve));
    expect([pulled, res.writes]).to.deep.equal([[FIRST, SECOND], []]);
    await relay.run(null);
    expect(res.writes.join('')).to.equal(FIRST + SECOND + DONE_EVENT);
  });
});
