import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BudgetedKey } from '../keys/index.js';
import { KeySeeds } from './key-seeds.js';

const key = (id: string, period: 'daily' | 'monthly' = 'daily'): BudgetedKey => ({ id, budget: { amount_usd: 1, period } });

describe('budget: keys waiting for their seed', () => {
  it('tries a failed seed again with the keys still waiting, and tells of the failure once per streak', async () => {
    const tries: string[][] = [];
    const failures: string[] = [];
    let failing = 2;
    const seeds = new KeySeeds(
      async (keys) => {
        tries.push(keys.map((k) => `${k.id} ${k.budget.period}`));
        if (failing-- > 0) throw new Error('store down');
      },
      (err) => failures.push((err as Error).message),
      10,
    );
    await seeds.add([key('a')]);
    await seeds.add([key('b'), key('a', 'monthly')]);
    await sleep(50);
    seeds.close();
    // The second try asks the monthly seed of `a` (its latest change) with `b`; the retry succeeds.
    expect(tries).to.deep.equal([['a daily'], ['a monthly', 'b daily'], ['a monthly', 'b daily']]);
    expect(failures).to.deep.equal(['store down']);
  });
});
