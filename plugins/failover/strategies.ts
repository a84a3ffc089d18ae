// The order in which a call tries a virtual model's targets. `failover`: as configured.
// `weighted`: one drawn by weight first, then the rest as configured (they are its fallbacks).
// `lowest_latency`: fastest recent successful answer first; a target not yet measured comes
// first so that it gets measured.
import type { Target } from '../../core/provider.js';
import type { Strategy } from '../router/schema.js';
import type { LatencyTable } from './latency.js';

export interface Weighted {
  target: Target;
  weight: number;
}

export function orderTargets(strategy: Strategy, targets: readonly Weighted[], latency: LatencyTable, random: () => number = Math.random): Target[] {
  const plain = targets.map((t) => t.target);
  if (strategy === 'weighted') {
    const first = drawByWeight(targets, random);
    return [plain[first]!, ...plain.filter((_t, i) => i !== first)];
  }
  if (strategy === 'lowest_latency') return plain.map((t, i) => ({ t, i, ms: latency.get(t.id) })).sort((a, b) => a.ms - b.ms || a.i - b.i).map((x) => x.t);
  return plain;
}

function drawByWeight(targets: readonly Weighted[], random: () => number): number {
  const total = targets.reduce((sum, t) => sum + t.weight, 0);
  let point = random() * total;
  for (let i = 0; i < targets.length; i++) {
    point -= targets[i]!.weight;
    if (point < 0) return i;
  }
  return targets.length - 1;
}
