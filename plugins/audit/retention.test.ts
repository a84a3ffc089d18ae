import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Retention } from './retention.js';
import { SqliteStore } from './store/sqlite/sqlite-store.js';
import { syntheticEntry } from './store/synthetic-entry.js';

const DAY = 86_400_000;
const quiet = { info: () => undefined, error: () => undefined } as unknown as ConstructorParameters<typeof Retention>[2];

describe('audit retention', () => {
  let dir: string;
  let store: SqliteStore;
  const now = Date.UTC(2025, 5, 30, 12);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-audit-retention-'));
    store = new SqliteStore(join(dir, 'sluice.db'));
    await store.audit.insert([
      syntheticEntry({ id: 'older', ts: now - 30 * DAY - 1 }),
      syntheticEntry({ id: 'edge', ts: now - 30 * DAY }),
      syntheticEntry({ id: 'recent', ts: now - DAY }),
    ]);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('purges entries older than retention_days, keeping the rest', async () => {
    await new Retention(store.audit, 30, quiet).purge(now);
    expect((await store.audit.query({}, null, 10)).data.map((e) => e.id)).to.deep.equal(['recent', 'edge']);
  });

  it('keeps everything with retention_days 0', async () => {
    const retention = new Retention(store.audit, 0, quiet);
    retention.start();
    await retention.stop();
    expect((await store.audit.query({}, null, 10)).data).to.have.length(3);
  });
});
