// The shared store suite on SQLite, in this thread and through the worker the gateway reads with.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStore } from '../store-suite.js';
import type { StoreFixture } from '../store-suite.js';
import { WorkerStore } from '../worker-store.js';
import { SqliteStore } from './sqlite-store.js';

function fixture(open: (file: string) => Promise<SqliteStore | WorkerStore>): StoreFixture {
  let dir: string | null = null;
  return {
    open() {
      dir ??= mkdtempSync(join(tmpdir(), 'sluice-store-'));
      return open(join(dir, 'sluice.db'));
    },
    destroy() {
      if (dir !== null) rmSync(dir, { recursive: true, force: true });
      dir = null;
      return Promise.resolve();
    },
  };
}

describeStore('sqlite', fixture((file) => Promise.resolve(new SqliteStore(file))));
describeStore('sqlite with the body index', fixture((file) => Promise.resolve(new SqliteStore(file, { bodyIndex: true }))));
describeStore('sqlite through its worker', fixture((file) => WorkerStore.open({ kind: 'sqlite', file, bodyIndex: true })));
