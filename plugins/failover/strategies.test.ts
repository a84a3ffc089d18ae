import { expect } from 'chai';
import type { Target } from '../../core/provider.js';
import { LatencyTable } from './latency.js';
import { orderTargets } from './strategies.js';

const target = (id: string): Target => ({ provider: { name: id } as Target['provider'], model: 'm', id, metadata: null });
const TARGETS = [
  { target: target('a'), weight: 3 },
  { target: target('b'), weight: 1 },
  { target: target('c'), weight: 1 },
];
const ids = (targets: Target[]): string[] => targets.map((t) => t.id);

describe('failover: target order by strategy', () => {
  it('failover keeps the configured order', () => {
    expect(ids(orderTargets('failover', TARGETS, new LatencyTable()))).to.deep.equal(['a', 'b', 'c']);
  });

  it('weighted draws the first by weight, the rest follow in configured order', () => {
    // Total weight 5: a covers [0, 3), b [3, 4), c [4, 5).
    expect(ids(orderTargets('weighted', TARGETS, new LatencyTable(), () => 0.59))).to.deep.equal(['a', 'b', 'c']);
    expect(ids(orderTargets('weighted', TARGETS, new LatencyTable(), () => 0.6))).to.deep.equal(['b', 'a', 'c']);
    expect(ids(orderTargets('weighted', TARGETS, new LatencyTable(), () => 0.99))).to.deep.equal(['c', 'a', 'b']);
  });

  it('lowest_latency puts unmeasured targets first, then the fastest average', () => {
    const latency = new LatencyTable();
    latency.record('a', 300);
    latency.record('b', 100);
    expect(ids(orderTargets('lowest_latency', TARGETS, latency))).to.deep.equal(['c', 'b', 'a']);
    latency.record('c', 1000);
    latency.record('b', 600); // average 100 + 0.2 * 500 = 200, still ahead of a
    expect(ids(orderTargets('lowest_latency', TARGETS, latency))).to.deep.equal(['b', 'a', 'c']);
  });
});
