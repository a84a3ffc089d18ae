// The directory of keys on a real SQLite store: what a found key's principal carries, how it
// follows the store's changes, and what happens when the store stops answering.
import { expect } from 'chai';
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isGatewayError } from '../../core/errors.js';
import { memoryLogger } from '../../test/helpers/memory-logger.js';
import { SqliteStore } from '../audit/store/sqlite/sqlite-store.js';
import type { KeysStore } from '../audit/store/store.js';
import { newKey } from '../audit/store/store-suite.js';
import { KeyDirectory } from './key-directory.js';

/** The code of the GatewayError `work` throws or rejects with. */
async function refusal(work: () => unknown): Promise<string | null> {
  try {
    await work();
  } catch (err) {
    if (isGatewayError(err)) return err.code;
    throw err;
  }
  throw new Error('not refused');
}

describe('KeyDirectory', () => {
  let dir: string;
  let store: SqliteStore;
  let directories: KeyDirectory[];
  const secret = 'sk-sluice-directory-test';
  const secretHash = hash('sha256', secret);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-keys-'));
    store = new SqliteStore(join(dir, 'sluice.db'));
    directories = [];
  });
  afterEach(async () => {
    await Promise.all(directories.map((d) => d.stop()));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function started(keys: KeysStore = store.keys, refreshMs = 60_000, logger = memoryLogger().logger): Promise<KeyDirectory> {
    const directory = new KeyDirectory(keys, refreshMs, logger);
    directories.push(directory);
    await directory.refresh();
    return directory;
  }

  it('tells of keys whose budget is new to it: every budgeted key at first, then a budget set or put on another period', async () => {
    await store.keys.create(newKey(1));
    await store.keys.create(newKey(2, { budget: null }));
    const told: string[][] = [];
    const directory = new KeyDirectory(store.keys, 60_000, memoryLogger().logger);
    directories.push(directory);
    directory.onNewBudgets(async (keys) => {
      told.push(keys.map((k) => `${k.id} ${k.budget.period} ${k.budget.amount_usd}`));
    });
    await directory.refresh();
    await store.keys.update('key_1', { budget: { amount_usd: 99, period: 'monthly' } }, Date.now());
    await store.keys.update('key_2', { budget: { amount_usd: 1, period: 'daily' } }, Date.now());
    await directory.refresh();
    await store.keys.update('key_1', { budget: { amount_usd: 99, period: 'weekly' } }, Date.now());
    await store.keys.update('key_2', { budget: null }, Date.now());
    await directory.refresh();
    await store.keys.update('key_2', { budget: { amount_usd: 1, period: 'daily' } }, Date.now());
    await directory.refresh();
    // An amount changed in the same period is not news: the counter has been counting.
    expect(told).to.deep.equal([['key_1 monthly 12.5'], ['key_2 daily 1'], ['key_1 weekly 99'], ['key_2 daily 1']]);
  });

  it("gives a key's principal its labels, models, budget and rate limit", async () => {
    await store.keys.create(newKey(1, { secret_hash: secretHash, expires_at: null }));
    const directory = await started();
    expect(await directory.findByHash(secretHash)).to.deep.equal({
      id: 'key_1',
      name: 'key number 1',
      kind: 'key',
      admin: true,
      labels: { team: 'team-1', 'x-user': 'ü ✓' },
      allowedModels: ['openai/*', 'demo/echo'],
      budget: { amount_usd: 12.5, period: 'monthly' },
      rateLimit: { rpm: 60, tpm: null, concurrent: 4 },
    });
    // From memory: the same frozen object every time.
    expect(directory.findByHash(secretHash)).to.equal(directory.findByHash(secretHash));
  });

  it('follows changes made through the store, on its next refresh', async () => {
    await store.keys.create(newKey(1, { secret_hash: secretHash, expires_at: null }));
    const directory = await started();
    await store.keys.update('key_1', { disabled: true }, Date.now());
    expect((directory.findByHash(secretHash) as { id: string }).id).to.equal('key_1');
    await directory.refresh();
    expect(await refusal(() => directory.findByHash(secretHash))).to.equal('key_disabled');
    await store.keys.update('key_1', { disabled: false, expires_at: Date.now() - 1 }, Date.now());
    await directory.refresh();
    expect(await refusal(() => directory.findByHash(secretHash))).to.equal('key_expired');
    await store.keys.delete('key_1', Date.now());
    await directory.refresh();
    expect(await directory.findByHash(secretHash)).to.equal(null);
  });

  it('reads a change made before refresh() was called, even while an earlier refresh is running', async () => {
    await store.keys.create(newKey(1, { secret_hash: secretHash, expires_at: null }));
    // Reads at once, answers 100 ms later: a refresh running across the write below read before it.
    const slow: KeysStore = Object.assign(Object.create(store.keys) as KeysStore, {
      changedSince: async (v: number, n: number) => {
        const changes = await store.keys.changedSince(v, n);
        await sleep(100);
        return changes;
      },
    });
    const directory = await started(slow);
    const running = directory.refresh();
    await sleep(20);
    await store.keys.update('key_1', { disabled: true }, Date.now());
    await directory.refresh();
    expect(await refusal(() => directory.findByHash(secretHash))).to.equal('key_disabled');
    await running;
  });

  it('asks the store for a key it has not seen yet', async () => {
    const directory = await started();
    await store.keys.create(newKey(2, { secret_hash: secretHash, expires_at: null }));
    expect(((await directory.findByHash(secretHash)) as { id: string }).id).to.equal('key_2');
    expect(await directory.findByHash(hash('sha256', 'sk-sluice-unknown'))).to.equal(null);
  });

  it('stops trusting itself a second after the store stopped answering, says so once, and recovers', async () => {
    await store.keys.create(newKey(1, { secret_hash: secretHash, expires_at: null }));
    let down = false;
    const failing = (): Promise<never> => Promise.reject(new Error('connection refused'));
    const flaky: KeysStore = Object.assign(Object.create(store.keys) as KeysStore, {
      changedSince: (v: number, n: number) => (down ? failing() : store.keys.changedSince(v, n)),
      findByHash: (h: string) => (down ? failing() : store.keys.findByHash(h)),
    });
    const { logger, lines } = memoryLogger();
    const directory = await started(flaky, 50, logger);
    down = true;
    expect((directory.findByHash(secretHash) as { id: string }).id).to.equal('key_1');
    await sleep(1100);
    expect(await refusal(() => directory.findByHash(secretHash))).to.equal('store_unavailable');
    expect(lines.filter((l) => l.startsWith('warn'))).to.deep.equal(['warn API keys: cannot read changes from the store (connection refused); lookups go to the store until it answers']);
    down = false;
    await sleep(200);
    expect((directory.findByHash(secretHash) as { id: string }).id).to.equal('key_1');
    expect(lines.at(-1)).to.equal('info API keys: the store answers again');
  });
});
