import { expect } from 'chai';
import type { RequestContext } from './context.js';
import type { Reply } from './reply.js';
import { HANDLED } from './reply.js';
import { createStages, stageRunners } from './stages.js';

const ctx = {} as RequestContext;

function later<T>(value: T): Promise<T> {
  return new Promise((resolve) => setImmediate(() => resolve(value)));
}

describe('stage runners', () => {
  it('leaves stages without taps out (null), and says whether sync stages have any', () => {
    const stages = createStages();
    stages.tag.tap('t', () => {});
    const run = stageRunners(stages);
    expect(run.auth).to.equal(null);
    expect(run.forward).to.equal(null);
    expect(run.tag).to.equal(true);
    expect(run.price).to.equal(false);
  });

  it('runs sync taps in stage order without a promise', () => {
    const stages = createStages();
    const seen: string[] = [];
    stages.route.tap({ name: 'b', stage: 0 }, () => void seen.push('b'));
    stages.route.tap({ name: 'a', stage: -100 }, () => void seen.push('a'));
    const result = stageRunners(stages).route!(ctx);
    expect(result).to.equal(undefined);
    expect(seen).to.deep.equal(['a', 'b']);
  });

  it('a throwing sync tap throws at once and stops the stage', () => {
    const stages = createStages();
    const seen: string[] = [];
    stages.route.tap('a', () => {
      throw new Error('nope');
    });
    stages.route.tap('b', () => void seen.push('b'));
    expect(() => stageRunners(stages).route!(ctx)).to.throw('nope');
    expect(seen).to.deep.equal([]);
  });

  it('waits for a promise tap before the taps after it', async () => {
    const stages = createStages();
    const seen: string[] = [];
    stages.auth.tap('a', () => void seen.push('a'));
    stages.auth.tapPromise('b', async () => {
      await later(null);
      seen.push('b');
    });
    stages.auth.tap('c', () => void seen.push('c'));
    const pending = stageRunners(stages).auth!(ctx);
    expect(pending).to.be.instanceOf(Promise);
    expect(seen).to.deep.equal(['a']);
    await pending;
    expect(seen).to.deep.equal(['a', 'b', 'c']);
  });

  it('rejects with a promise tap’s error, and runs nothing after it', async () => {
    const stages = createStages();
    const seen: string[] = [];
    stages.limit.tapPromise('a', () => later(null).then(() => Promise.reject(new Error('limited'))));
    stages.limit.tap('b', () => void seen.push('b'));
    let caught: unknown;
    await stageRunners(stages).limit!(ctx)!.catch((err: unknown) => (caught = err));
    expect((caught as Error).message).to.equal('limited');
    expect(seen).to.deep.equal([]);
  });

  it('a bail stage answers with the first reply, sync or async', async () => {
    const reply = { kind: 'json', status: 200, body: {}, raw: null, usage: null, headers: null } as Reply;
    const sync = createStages();
    const skipped: string[] = [];
    sync.forward.tap('none', () => undefined);
    sync.forward.tap('answer', () => HANDLED);
    sync.forward.tap('never', () => void skipped.push('never'));
    expect(stageRunners(sync).forward!(ctx)).to.equal(HANDLED);
    expect(skipped).to.deep.equal([]);

    const mixed = createStages();
    mixed.cache.tapPromise('miss', () => later(undefined));
    mixed.cache.tap('hit', () => reply);
    const pending = stageRunners(mixed).cache!(ctx);
    expect(pending).to.be.instanceOf(Promise);
    expect(await pending).to.equal(reply);

    const none = createStages();
    none.cache.tapPromise('miss', () => later(undefined));
    expect(await stageRunners(none).cache!(ctx)).to.equal(undefined);
  });

  it('leaves a stage with interceptors or callback taps to tapable', async () => {
    const stages = createStages();
    const seen: string[] = [];
    stages.log.intercept({ call: () => void seen.push('intercepted') });
    stages.log.tap('a', () => void seen.push('a'));
    stages.route.tapAsync('cb', (_ctx, done) => {
      seen.push('callback');
      setImmediate(done);
    });
    const run = stageRunners(stages);
    await run.log!(ctx);
    await run.route!(ctx);
    expect(seen).to.deep.equal(['intercepted', 'a', 'callback']);
  });
});
