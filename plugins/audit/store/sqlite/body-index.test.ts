import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { syntheticEntry } from '../synthetic-entry.js';
import { SqliteStore } from './sqlite-store.js';

describe('the SQLite body index setting', () => {
  let dir: string;
  const file = (): string => join(dir, 'sluice.db');
  const indexed = (): number => {
    const db = new Database(file(), { readonly: true });
    try {
      return db.prepare('SELECT count(*) FROM audit_bodies').pluck().get() as number;
    } finally {
      db.close();
    }
  };
  const reopen = (bodyIndex: boolean): SqliteStore => new SqliteStore(file(), { bodyIndex });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-body-index-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes the entries stored without it once switched on, and empties the index once switched off', async () => {
    let store = reopen(false);
    await store.audit.insert([syntheticEntry({ id: 'a', ts: 1000, request_body: 'hello walrus' }), syntheticEntry({ id: 'b', ts: 2000, request_body: 'hello otter' })]);
    await store.close();
    expect(indexed()).to.equal(0);

    store = reopen(true);
    expect(indexed()).to.equal(2);
    expect((await store.audit.query({ q: 'walrus' }, null, 10)).data.map((e) => e.id)).to.deep.equal(['a']);
    await store.audit.insert([syntheticEntry({ id: 'c', ts: 3000, request_body: 'walrus again' })]);
    expect((await store.audit.query({ q: 'walrus' }, null, 10)).data.map((e) => e.id)).to.deep.equal(['c', 'a']);
    await store.close();
    expect(indexed()).to.equal(3);

    store = reopen(false);
    expect(indexed()).to.equal(0);
    expect((await store.audit.query({ q: 'walrus' }, null, 10)).data.map((e) => e.id)).to.deep.equal(['c', 'a']);
    await store.close();
  });
});
