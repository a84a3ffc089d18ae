// openStore loads the driver of the store it opens only: the writer's and the reader's worker
// threads of a SQLite gateway never hold `pg`. Run in a fresh worker thread (sources under tsx),
// whose module cache holds only what opening the store loaded.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { packagesOf } from '../../../test/helpers/packages.js';
import { tsxApiUrl } from '../worker-rpc.js';

const OPEN_STORE = new URL('./open-store.ts', import.meta.url).href;

/** Opens a SQLite store in a new worker thread; the module files that thread loaded. */
async function filesLoadedOpening(file: string): Promise<string[]> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(${JSON.stringify(tsxApiUrl())})
      .then((tsx) => { tsx.register(); return import(${JSON.stringify(OPEN_STORE)}); })
      .then(async ({ openStore }) => {
        const store = await openStore({ kind: 'sqlite', file: workerData });
        await store.close();
        parentPort.postMessage(Object.keys(require.cache));
      });`;
  const worker = new Worker(code, { eval: true, workerData: file });
  try {
    return await new Promise<string[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe('openStore', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-open-store-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('opens a SQLite store without loading the PostgreSQL driver', async () => {
    const packages = packagesOf(await filesLoadedOpening(join(dir, 'sluice.db')));
    expect(packages).to.include('better-sqlite3');
    expect(packages.filter((p) => p === 'pg' || p.startsWith('pg-'))).to.deep.equal([]);
  });
});
