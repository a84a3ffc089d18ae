import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isGatewayError } from '../../core/errors.js';
import { requestId } from '../../core/request-id.js';
import type { AuditEntry } from './entry.js';
import { SqliteAuditStore } from './sqlite-store.js';
import { migrate, SCHEMA_VERSION } from './sqlite-schema.js';
import type { UsageGroupBy, UsageRow } from './store.js';
import { syntheticEntry } from './synthetic-entry.js';

const HOUR = 3_600_000;
// 2025-03-10T00:00:00Z: a fixed, hour-aligned origin.
const T0 = Date.UTC(2025, 2, 10);

/** A deterministic PRNG so failures reproduce. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

/** The usage rows computed the slow, obvious way, over raw entries. */
function bruteUsage(entries: readonly AuditEntry[], groupBy: UsageGroupBy, from: number, to: number): UsageRow[] {
  const rows = new Map<string | null, UsageRow>();
  const add = (value: string | null, e: AuditEntry): void => {
    let row = rows.get(value);
    if (!row) rows.set(value, (row = { value, requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_pico: 0n, unpriced_requests: 0 }));
    row.requests++;
    row.input_tokens += e.input_tokens;
    row.output_tokens += e.output_tokens;
    row.total_tokens += e.total_tokens;
    row.cost_pico += e.cost_pico === null ? 0n : BigInt(e.cost_pico);
    if (e.cost_pico === null && e.provider !== null) row.unpriced_requests++;
  };
  for (const e of entries) {
    if (e.ts < from || e.ts >= to) continue;
    if (groupBy === 'key') add(e.key_id, e);
    else if (groupBy === 'model') add(e.resolved_model ?? e.model, e);
    else if (groupBy === 'provider') add(e.provider, e);
    else {
      const raw = e.labels[groupBy.slice(6)];
      const values = new Set((raw === undefined ? [] : typeof raw === 'string' ? [raw] : raw).filter((v) => v !== ''));
      if (values.size === 0) add(null, e);
      for (const v of values) add(v, e);
    }
  }
  return [...rows.values()];
}

function byValue(rows: readonly UsageRow[]): Record<string, UsageRow> {
  return Object.fromEntries(rows.map((r) => [String(r.value), r]));
}

describe('audit SQLite store', () => {
  let dir: string;
  let store: SqliteAuditStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-audit-store-'));
    store = new SqliteAuditStore(join(dir, 'sluice.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores an entry and gives it back whole', () => {
    const entry = syntheticEntry({ id: 'a1', ts: T0 + 1234, labels: { team: 'ml', env: ['prod', 'eu'] }, error: null });
    store.insert([entry]);
    expect(store.get('a1')).to.deep.equal(entry);
    expect(store.get('nope')).to.equal(null);
  });

  it('migrates once: a versioned schema, reopened without change', () => {
    store.insert([syntheticEntry({ id: 'a1', ts: T0 })]);
    store.close();
    store = new SqliteAuditStore(join(dir, 'sluice.db'));
    expect(store.get('a1')?.id).to.equal('a1');
    const db = new Database(join(dir, 'sluice.db'), { readonly: true });
    try {
      expect(db.prepare("SELECT version FROM schema_version WHERE component = 'audit'").get()).to.deep.equal({ version: SCHEMA_VERSION });
      expect(db.pragma('journal_mode', { simple: true })).to.equal('wal');
    } finally {
      db.close();
    }
  });

  it('finds an entry by its UUIDv7 id among the rows of its millisecond, with no index on ids', () => {
    const ids = [requestId(T0 + 5), requestId(T0 + 5), requestId(T0 + 5), requestId(T0 + 6), requestId(T0 + 4)];
    const entries = ids.map((id, i) => syntheticEntry({ id, ts: T0 + [5, 5, 5, 6, 4][i]!, key_id: `k${i}` }));
    // A UUIDv7 of another millisecond than its entry's start, and an id that is no UUIDv7.
    const elsewhere = syntheticEntry({ id: requestId(T0 + 99), ts: T0 + 5, key_id: 'elsewhere' });
    const legacy = syntheticEntry({ id: 'c3d4e5f6-0000-4000-8000-000000000001', ts: T0 + 5, key_id: 'legacy' });
    store.insert([...entries, elsewhere, legacy]);
    for (const e of [...entries, elsewhere, legacy]) expect(store.get(e.id)).to.deep.equal(e);
    expect(store.get(requestId(T0 + 5))).to.equal(null);
    expect(store.get('nobody')).to.equal(null);
    const db = new Database(join(dir, 'sluice.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT id FROM audit_ids ORDER BY id').pluck().all()).to.deep.equal([elsewhere.id, legacy.id].sort());
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_entries'").all()).to.deep.equal([]);
    } finally {
      db.close();
    }
  });

  it('never answers for a listed id with the row that took its place after an interrupted purge', async () => {
    store.insert([syntheticEntry({ id: 'legacy-7', ts: T0 + 7, key_id: 'old' }), syntheticEntry({ id: requestId(T0 + 2 * HOUR), ts: T0 + 2 * HOUR })]);
    await store.maintain();
    store.close();
    // What a purge had committed when it stopped: its entry chunks, not the listed ids.
    const db = new Database(join(dir, 'sluice.db'));
    db.prepare('DELETE FROM audit_entries WHERE seq < (? << 20)').run(T0 + HOUR);
    db.close();
    store = new SqliteAuditStore(join(dir, 'sluice.db'));
    // A late entry for the purged millisecond takes the position again.
    const late = syntheticEntry({ id: requestId(T0 + 7), ts: T0 + 7, key_id: 'late' });
    store.insert([late], { mayBeStored: true });
    expect(store.get('legacy-7')).to.equal(null);
    expect(store.get(late.id)).to.deep.equal(late);
    // The id is no longer stored: it may be stored again, and is found then.
    const again = syntheticEntry({ id: 'legacy-7', ts: T0 + 9, key_id: 'again' });
    store.insert([again], { mayBeStored: true });
    expect(store.get('legacy-7')).to.deep.equal(again);
  });

  it('stores a repeated id again, whatever its form, unless told some entries may be stored', () => {
    const odd = syntheticEntry({ id: 'o1', ts: T0 + 10 });
    const v7 = syntheticEntry({ id: requestId(T0 + 11), ts: T0 + 11 });
    store.insert([odd, v7, odd]);
    store.insert([v7, odd]);
    expect(store.query({}, null, 10).data.map((e) => e.id)).to.deep.equal([v7.id, v7.id, odd.id, odd.id, odd.id]);
    expect(store.get('o1')).to.deep.equal(odd);
  });

  it('is idempotent when told: a retried batch is neither stored nor counted twice', () => {
    const batch = [syntheticEntry({ id: 'a1', ts: T0 + 10 }), syntheticEntry({ id: requestId(T0 + 20), ts: T0 + 20 })];
    store.insert(batch);
    store.insert(batch, { mayBeStored: true });
    expect(store.query({}, null, 10).data.map((e) => e.id)).to.deep.equal([batch[1]!.id, 'a1']);
    const [row] = store.usage('model', T0, T0 + HOUR);
    expect(row).to.deep.equal({ value: 'demo/echo', requests: 2, input_tokens: 84, output_tokens: 34, total_tokens: 118, cost_pico: 2n * (42n * 150_000n + 17n * 600_000n), unpriced_requests: 0 });
    // Whole hours come from the rollup, which must not have counted the retry either.
    expect(store.usage('model', T0 - HOUR, T0 + 2 * HOUR)).to.deep.equal([row]);
  });

  it('skips known ids within a batch of many rows, whichever rows they are, and counts each entry once', () => {
    // Rows go in by statements of several rows: known ids at the start, middle and end of
    // those statements, an id repeated within the batch, and a batch longer than one statement.
    // Every other id a UUIDv7 carrying its entry's start, the others listed apart.
    const ids = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? requestId(T0 + 1 + 10 * i) : `m${String(i).padStart(3, '0')}`));
    const entry = (i: number): AuditEntry => syntheticEntry({ id: ids[i]!, ts: T0 + 1 + 10 * i, key_id: `k${i % 3}` });
    store.insert([0, 31, 32, 40, 63, 64, 99].map(entry));
    const batch = Array.from({ length: 100 }, (_, i) => entry(i));
    batch.splice(50, 0, entry(7), entry(8));
    store.insert(batch, { mayBeStored: true });
    const listed = store.query({}, null, 500).data.map((e) => e.id);
    expect(listed).to.deep.equal(Array.from({ length: 100 }, (_, i) => entry(99 - i).id));
    const requests = (rows: UsageRow[]): number => rows.reduce((n, row) => n + row.requests, 0);
    // From the raw rows (partial hours), and from the rollups (a whole hour).
    expect(requests(store.usage('key', T0 + 1, T0 + HOUR - 1))).to.equal(100);
    expect(requests(store.usage('key', T0, T0 + HOUR))).to.equal(100);
    expect(store.get('m007')).to.deep.equal(entry(7));
    expect(store.get(ids[8]!)).to.deep.equal(entry(8));
  });

  it('upgrades a database with an id index: drops it, and lists the ids that do not carry their ts', () => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'sluice-audit-v2-'));
    const file = join(dir, 'sluice.db');
    const v7 = requestId(T0 + 7);
    const db = new Database(file);
    try {
      migrate(db, 2);
      const row = db.prepare('INSERT INTO audit_entries (seq, id, ts, model, provider, key_id, status, input_tokens, output_tokens, total_tokens, cost_pico, labels, off, len) VALUES (((? << 20) | ?), ?, ?, NULL, NULL, NULL, 200, 0, 0, 0, NULL, NULL, 0, 0)');
      row.run(T0 + 7, 0, v7, T0 + 7);
      row.run(T0 + 7, 1, 'legacy-1', T0 + 7);
      row.run(T0 + 8, 0, requestId(T0 + 3), T0 + 8);
    } finally {
      db.close();
    }
    store = new SqliteAuditStore(file);
    expect(store.get(v7)?.id).to.equal(v7);
    expect(store.get('legacy-1')?.id).to.equal('legacy-1');
    const check = new Database(file, { readonly: true });
    try {
      expect(check.prepare('SELECT seq & 1048575 AS n, ts FROM audit_ids JOIN audit_entries USING (seq) ORDER BY seq').all()).to.deep.equal([
        { n: 1, ts: T0 + 7 },
        { n: 0, ts: T0 + 8 },
      ]);
      expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'audit_entries_id'").all()).to.deep.equal([]);
    } finally {
      check.close();
    }
  });

  describe('query filters', () => {
    beforeEach(() => {
      store.insert([
        syntheticEntry({ id: 'e1', ts: T0 + 1000, model: 'openai/gpt-4o', provider: 'openai', key_id: 'k1', status: 200, labels: { team: 'ml' } }),
        syntheticEntry({ id: 'e2', ts: T0 + 2000, model: 'fast', resolved_model: 'fast', provider_model: 'gpt-4o', provider: 'openai', key_id: 'k2', status: 404, labels: { team: 'web', env: 'prod' } }),
        syntheticEntry({ id: 'e3', ts: T0 + 3000, model: 'anthropic/claude', provider: 'anthropic', key_id: 'k1', status: 502, labels: { team: ['ml', 'web'], env: 'prod' } }),
        syntheticEntry({ id: 'e4', ts: T0 + 4000, model: 'openai/gpt-4o', provider: 'openai', key_id: 'master', status: 429, request_body: '{"q":"100% off_sale"}' }),
        syntheticEntry({ id: 'e5', ts: T0 + 5000, model: 'nobody/x', resolved_model: null, provider: null, cost_pico: null, status: 404, response_body: 'plain text reply' }),
        // Asked for one model, answered by another (failover): counted, and found, under the second.
        syntheticEntry({ id: 'e6', ts: T0 + 6000, model: 'openai/gpt-4o', resolved_model: 'anthropic/claude', provider: 'anthropic', key_id: 'k3', status: 201 }),
      ]);
    });
    const ids = (filter: Parameters<SqliteAuditStore['query']>[0]): string[] => store.query(filter, null, 50).data.map((e) => e.id);

    it('lists newest first, summaries without bodies or headers', () => {
      const page = store.query({}, null, 50);
      expect(page.data.map((e) => e.id)).to.deep.equal(['e6', 'e5', 'e4', 'e3', 'e2', 'e1']);
      expect(page.next_cursor).to.equal(null);
      expect(page.data[1]).to.not.have.any.keys('request_body', 'response_body', 'request_headers', 'usage', 'cost', 'attempts');
      expect(page.data[1]).to.include({ id: 'e5', status: 404, provider: null, cost_pico: null });
    });

    it('filters by model (as usage counts it: resolved, else requested), provider, key', () => {
      expect(ids({ model: 'openai/gpt-4o' })).to.deep.equal(['e4', 'e1']);
      expect(ids({ model: 'anthropic/claude' })).to.deep.equal(['e6', 'e3']);
      expect(ids({ model: 'nobody/x' })).to.deep.equal(['e5']);
      expect(ids({ model: 'fast' })).to.deep.equal(['e2']);
      expect(ids({ provider: 'anthropic' })).to.deep.equal(['e6', 'e3']);
      expect(ids({ key: 'k1' })).to.deep.equal(['e3', 'e1']);
      expect(ids({ key: 'k1', provider: 'openai' })).to.deep.equal(['e1']);
    });

    it('filters by labels (all must match; any value of a multi-valued label)', () => {
      expect(ids({ labels: [{ name: 'team', value: 'ml' }] })).to.deep.equal(['e3', 'e1']);
      expect(ids({ labels: [{ name: 'team', value: 'web' }] })).to.deep.equal(['e3', 'e2']);
      expect(ids({ labels: [{ name: 'team', value: 'web' }, { name: 'env', value: 'prod' }] })).to.deep.equal(['e3', 'e2']);
      expect(ids({ labels: [{ name: 'team', value: 'ml' }, { name: 'env', value: 'prod' }] })).to.deep.equal(['e3']);
      expect(ids({ labels: [{ name: 'team', value: 'nobody' }] })).to.deep.equal([]);
    });

    it('filters by status: exact, class, any error', () => {
      expect(ids({ status: [404, 404] })).to.deep.equal(['e5', 'e2']);
      expect(ids({ status: [400, 499] })).to.deep.equal(['e5', 'e4', 'e2']);
      expect(ids({ status: [500, 599] })).to.deep.equal(['e3']);
      expect(ids({ status: [400, 599] })).to.deep.equal(['e5', 'e4', 'e3', 'e2']);
      expect(ids({ status: [200, 299] })).to.deep.equal(['e6', 'e1']);
    });

    it('filters by time: from inclusive, to exclusive', () => {
      expect(ids({ from: T0 + 2000, to: T0 + 4000 })).to.deep.equal(['e3', 'e2']);
    });

    it('searches bodies literally (% and _ are not wildcards), case-insensitively', () => {
      expect(ids({ q: '100% off_sale' })).to.deep.equal(['e4']);
      expect(ids({ q: '0%' })).to.deep.equal(['e4']);
      expect(ids({ q: 'of__sale' })).to.deep.equal([]);
      expect(ids({ q: 'off%sale' })).to.deep.equal([]);
      expect(ids({ q: 'PLAIN TEXT' })).to.deep.equal(['e5']);
      expect(ids({ q: 'entry e2' })).to.deep.equal(['e2']);
    });
  });

  describe('cursor pagination', () => {
    it('walks every entry exactly once, in order, even with equal timestamps and late inserts', () => {
      const random = prng(7);
      const entries: AuditEntry[] = [];
      // Many entries share a millisecond, and batches arrive out of time order.
      for (let i = 0; i < 237; i++) entries.push(syntheticEntry({ id: `p${i}`, ts: T0 + Math.floor(random() * 40) * 1000 }));
      for (let i = 0; i < entries.length; i += 50) store.insert(entries.slice(i, i + 50).reverse());
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = store.query({}, cursor, 10);
        seen.push(...page.data.map((e) => e.id));
        cursor = page.next_cursor;
        pages++;
        // A newer entry arriving mid-walk belongs before the cursor: it must not show up later.
        if (pages === 3) store.insert([syntheticEntry({ id: 'late', ts: T0 + 999_999 })]);
      } while (cursor !== null);
      expect(pages).to.equal(24);
      expect(new Set(seen).size).to.equal(seen.length);
      // The same order as a stable sort by time, newest first (ties: the later insert first).
      const db = new Database(join(dir, 'sluice.db'), { readonly: true });
      const expected = (db.prepare("SELECT id FROM audit_entries WHERE id <> 'late' ORDER BY ts DESC, seq DESC").all() as Array<{ id: string }>).map((r) => r.id);
      db.close();
      expect(seen).to.deep.equal(expected);
    });

    it('pages a filtered list too, and ends with next_cursor null', () => {
      store.insert(Array.from({ length: 25 }, (_, i) => syntheticEntry({ id: `f${i}`, ts: T0 + i, provider: i % 2 === 0 ? 'openai' : 'demo' })));
      const first = store.query({ provider: 'openai' }, null, 10);
      const second = store.query({ provider: 'openai' }, first.next_cursor, 10);
      expect(first.data.map((e) => e.id)).to.deep.equal(['f24', 'f22', 'f20', 'f18', 'f16', 'f14', 'f12', 'f10', 'f8', 'f6']);
      expect(second.data.map((e) => e.id)).to.deep.equal(['f4', 'f2', 'f0']);
      expect(second.next_cursor).to.equal(null);
    });

    it('rejects a cursor it did not issue with the contract 400', () => {
      try {
        store.query({}, 'bm90LWEtY3Vyc29y', 10);
        expect.fail('expected a 400');
      } catch (err) {
        expect(isGatewayError(err)).to.equal(true);
        expect((err as { status: number; param: string }).status).to.equal(400);
        expect((err as { param: string }).param).to.equal('cursor');
      }
    });
  });

  describe('usage', () => {
    // Read-only tests: one store, filled once, beside the per-test one.
    let usageDir: string;
    let usageStore: SqliteAuditStore;
    let entries: AuditEntry[];
    const models = ['openai/gpt-4o', 'anthropic/claude', 'demo/echo'];
    const teams = ['ml', 'web', 'data', ''];

    after(() => {
      usageStore.close();
      rmSync(usageDir, { recursive: true, force: true });
    });
    before(() => {
      usageDir = mkdtempSync(join(tmpdir(), 'sluice-audit-usage-'));
      usageStore = new SqliteAuditStore(join(usageDir, 'sluice.db'));
      const random = prng(42);
      entries = [];
      for (let i = 0; i < 3000; i++) {
        const ts = T0 + Math.floor(random() * 72 * HOUR);
        const model = models[Math.floor(random() * models.length)]!;
        const roll = random();
        const labels: AuditEntry['labels'] = {};
        if (roll < 0.5) labels['team'] = teams[Math.floor(random() * teams.length)]!;
        else if (roll < 0.65) labels['team'] = ['ml', 'web', 'ml'];
        if (random() < 0.3) labels['env'] = 'prod';
        const unknownModel = random() < 0.03;
        entries.push(
          syntheticEntry({
            id: `u${i}`,
            ts,
            model: unknownModel ? 'nobody/x' : model,
            resolved_model: unknownModel ? null : model,
            provider: unknownModel ? null : model.slice(0, model.indexOf('/')),
            key_id: `k${Math.floor(random() * 5)}`,
            input_tokens: Math.floor(random() * 5000),
            output_tokens: Math.floor(random() * 2000),
            cost_pico: unknownModel || random() < 0.05 ? null : Math.floor(random() * 9_000_000_000),
            labels,
          }),
        );
      }
      for (let i = 0; i < entries.length; i += 500) usageStore.insert(entries.slice(i, i + 500));
    });

    const windows: Array<[string, number, number]> = [
      ['unaligned edges over days', T0 + 5 * HOUR + 1_234_567, T0 + 60 * HOUR + 59_999],
      ['whole hours only', T0 + 2 * HOUR, T0 + 50 * HOUR],
      ['within one hour', T0 + 7 * HOUR + 100_000, T0 + 7 * HOUR + 2_000_000],
      ['one ms before an hour to one ms after the next', T0 + 10 * HOUR - 1, T0 + 11 * HOUR + 1],
      ['everything', T0 - HOUR, T0 + 100 * HOUR],
      ['nothing', T0 + 200 * HOUR, T0 + 300 * HOUR],
    ];
    for (const groupBy of ['key', 'model', 'provider', 'label:team', 'label:env'] as UsageGroupBy[]) {
      for (const [name, from, to] of windows) {
        it(`by ${groupBy}, ${name}: equals the brute-force sum over raw rows`, () => {
          const got = usageStore.usage(groupBy, from, to);
          expect(byValue(got)).to.deep.equal(byValue(bruteUsage(entries, groupBy, from, to)));
          // Sorted by cost, then requests, descending.
          for (let i = 1; i < got.length; i++) {
            const a = got[i - 1]!;
            const b = got[i]!;
            expect(a.cost_pico > b.cost_pico || (a.cost_pico === b.cost_pico && a.requests >= b.requests)).to.equal(true);
          }
        });
      }
    }

    it('labels: a multi-valued entry counts under each value, the unlabelled under null', () => {
      const rows = byValue(usageStore.usage('label:team', T0 - HOUR, T0 + 100 * HOUR));
      const brute = byValue(bruteUsage(entries, 'label:team', T0 - HOUR, T0 + 100 * HOUR));
      expect(Object.keys(rows).sort()).to.deep.equal(['data', 'ml', 'null', 'web']);
      expect(rows['null']!.requests).to.equal(brute['null']!.requests);
      const multi = entries.filter((e) => Array.isArray(e.labels['team'])).length;
      const total = rows['ml']!.requests + rows['web']!.requests + rows['data']!.requests + rows['null']!.requests;
      expect(total).to.equal(entries.length + multi);
    });
  });

  it('sums money exactly beyond 2^53 picodollars', () => {
    store.insert([0, 1, 2].map((i) => syntheticEntry({ id: `big${i}`, ts: T0 + i * HOUR + 5, cost_pico: 4_000_000_000_000_001 })));
    // Rollup hours and raw edges both: the edges here cut into the first and last hour.
    for (const [from, to] of [[T0, T0 + 3 * HOUR], [T0 + 1, T0 + 3 * HOUR - 1]] as const) {
      const [row] = store.usage('provider', from, to);
      expect(row!.cost_pico).to.equal(12_000_000_000_000_003n);
    }
  });

  it('counts unpriced calls (a provider answered, no price known), not calls that reached none', () => {
    store.insert([
      syntheticEntry({ id: 'x1', ts: T0 + 1, cost_pico: null }),
      syntheticEntry({ id: 'x2', ts: T0 + 2, model: 'nobody/x', resolved_model: null, provider: null, cost_pico: null }),
      syntheticEntry({ id: 'x3', ts: T0 + 3, cost_pico: 5 }),
    ]);
    expect(store.usage('model', T0, T0 + HOUR)).to.deep.equal([
      { value: 'demo/echo', requests: 2, input_tokens: 84, output_tokens: 34, total_tokens: 118, cost_pico: 5n, unpriced_requests: 1 },
      { value: 'nobody/x', requests: 1, input_tokens: 42, output_tokens: 17, total_tokens: 59, cost_pico: 0n, unpriced_requests: 0 },
    ]);
  });

  it('purges raw entries and their labels before a time, and keeps the rollups', async () => {
    const old = Array.from({ length: 4500 }, (_, i) => syntheticEntry({ id: `old${i}`, ts: T0 + (i % 10) * 1000, labels: { team: 'ml' } }));
    const recent = [syntheticEntry({ id: 'new1', ts: T0 + 5 * HOUR, labels: { team: 'web' } })];
    for (let i = 0; i < old.length; i += 500) store.insert(old.slice(i, i + 500));
    store.insert(recent);
    const deleted = await store.purgeBefore(T0 + HOUR);
    expect(deleted).to.equal(4500);
    expect(store.get('old0')).to.equal(null);
    expect(store.query({}, null, 10).data.map((e) => e.id)).to.deep.equal(['new1']);
    const db = new Database(join(dir, 'sluice.db'), { readonly: true });
    try {
      // Labels live in their entry's row: they went with it.
      expect(db.prepare('SELECT COUNT(*) AS n FROM audit_entries WHERE labels IS NOT NULL').get()).to.deep.equal({ n: 1 });
      // So did the ids listed apart.
      expect(db.prepare('SELECT id FROM audit_ids').pluck().all()).to.deep.equal(['new1']);
    } finally {
      db.close();
    }
    // Whole hours still answer from the rollups.
    const rows = byValue(store.usage('label:team', T0, T0 + 6 * HOUR));
    expect(rows['ml']!.requests).to.equal(4500);
    expect(rows['web']!.requests).to.equal(1);
    expect(await store.purgeBefore(T0 + HOUR)).to.equal(0);
  });
});
