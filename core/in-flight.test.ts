import { expect } from 'chai';
import type { RequestContext } from './context.js';
import { InFlight } from './in-flight.js';

const request = (id: string): RequestContext => ({ id }) as RequestContext;

describe('requests in flight', () => {
  it('counts, lists and forgets requests, reusing the slots of finished ones', () => {
    const inFlight = new InFlight();
    const [a, b, c] = [request('a'), request('b'), request('c')];
    const slotA = inFlight.add(a);
    const slotB = inFlight.add(b);
    expect([slotA, slotB]).to.deep.equal([0, 1]);
    inFlight.delete(slotA);
    expect(inFlight.size).to.equal(1);
    expect(inFlight.add(c)).to.equal(slotA);
    const seen: string[] = [];
    inFlight.forEach((ctx) => seen.push(ctx.id));
    expect(seen).to.deep.equal(['c', 'b']);
    inFlight.delete(slotA);
    inFlight.delete(slotB);
    expect(inFlight.size).to.equal(0);
    inFlight.forEach(() => expect.fail('no request is in flight'));
  });
});
