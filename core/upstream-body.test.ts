import { expect } from 'chai';
import type { Dispatcher } from 'undici';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BodyConsumer } from './upstream-body.js';
import { UpstreamBody } from './upstream-body.js';
import type { GatewayError } from './errors.js';

/** A consumer that records what it is handed, in order. */
function recorder(accept = true): BodyConsumer & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    data(chunk) {
      calls.push(`data:${chunk.toString()}`);
      return accept;
    },
    end() {
      calls.push('end');
    },
    error(err) {
      calls.push(`error:${(err as Error).message}`);
    },
  };
}

/** A controller that records pause, resume and abort, and knows whether it is paused. */
function controller(): Dispatcher.DispatchController & { log: string[] } {
  const log: string[] = [];
  const c = {
    log,
    paused: false,
    pause() {
      log.push('pause');
      c.paused = true;
    },
    resume() {
      log.push('resume');
      c.paused = false;
    },
    abort(err: Error) {
      log.push(`abort:${err.message}`);
    },
  };
  return c as unknown as Dispatcher.DispatchController & { log: string[] };
}

describe('upstream body in push mode', () => {
  it('hands the frames of one read to the consumer joined, once the read is parsed', async () => {
    const body = new UpstreamBody('p');
    const consumer = recorder();
    body.consume(consumer);
    body.push(Buffer.from('data: 1\n\n'));
    body.push(Buffer.from('data: 2\n\n'));
    body.push(Buffer.from('data: 3\n\n'));
    expect(consumer.calls).to.deep.equal([]);
    await Promise.resolve();
    expect(consumer.calls).to.deep.equal(['data:data: 1\n\ndata: 2\n\ndata: 3\n\n']);
  });

  it('hands reads that arrive apart over one by one', async () => {
    const body = new UpstreamBody('p');
    const consumer = recorder();
    body.consume(consumer);
    body.push(Buffer.from('a'));
    await nextTurn();
    body.push(Buffer.from('b'));
    await nextTurn();
    expect(consumer.calls).to.deep.equal(['data:a', 'data:b']);
  });

  it('hands over what it holds before the end, and before an error', () => {
    const ended = new UpstreamBody('p');
    const a = recorder();
    ended.consume(a);
    ended.push(Buffer.from('x'));
    ended.push(Buffer.from('y'));
    ended.finish();
    expect(a.calls).to.deep.equal(['data:xy', 'end']);

    const failed = new UpstreamBody('p');
    const b = recorder();
    failed.consume(b);
    failed.push(Buffer.from('x'));
    failed.fail(new Error('reset'));
    expect(b.calls).to.deep.equal(['data:x', 'error:reset']);
  });

  it('joins what arrived before the consumer attached, then ends if the body had', () => {
    const body = new UpstreamBody('p');
    body.push(Buffer.from('one '));
    body.push(Buffer.from('two'));
    body.finish();
    const consumer = recorder();
    body.consume(consumer);
    expect(consumer.calls).to.deep.equal(['data:one two', 'end']);
  });

  it('pauses the upstream when the consumer cannot take more, and resumes on request', async () => {
    const body = new UpstreamBody('p');
    const c = controller();
    body.attach(c);
    body.consume(recorder(false));
    body.push(Buffer.from('a'));
    body.push(Buffer.from('b'));
    await Promise.resolve();
    expect(c.log).to.deep.equal(['pause']);
    body.resume();
    expect(c.log).to.deep.equal(['pause', 'resume']);
  });
});

describe('upstream body read whole', () => {
  it('resumes an upstream paused before a consumer attached, once one does', () => {
    const body = new UpstreamBody('p');
    const c = controller();
    body.attach(c);
    body.push(Buffer.alloc(300 * 1024));
    expect(c.log).to.deep.equal(['pause']);
    const consumer = recorder();
    body.consume(consumer);
    expect(c.log).to.deep.equal(['pause', 'resume']);
    expect(consumer.calls).to.have.length(1);
  });

  it('bytes() resumes a paused upstream and reads past the pause threshold to the end', async () => {
    const body = new UpstreamBody('p', 1024 * 1024);
    const c = controller();
    body.attach(c);
    body.push(Buffer.alloc(300 * 1024, 'a'));
    const whole = body.bytes();
    expect(c.log).to.deep.equal(['pause', 'resume']);
    body.push(Buffer.alloc(600 * 1024, 'b'));
    body.finish();
    expect((await whole).length).to.equal(900 * 1024);
    expect(c.log).to.deep.equal(['pause', 'resume']);
  });

  it('bytes() past the maximum fails with 502 answer_too_large and aborts the upstream', async () => {
    const body = new UpstreamBody('p', 1000);
    const c = controller();
    body.attach(c);
    const whole = body.bytes().then(() => null, (e: unknown) => e as GatewayError);
    body.push(Buffer.alloc(600));
    body.push(Buffer.alloc(600));
    const err = await whole;
    expect(err).to.include({ status: 502, type: 'provider_error', code: 'answer_too_large', provider: 'p' });
    expect(c.log).to.deep.equal([`abort:${err!.message}`]);
  });
});
