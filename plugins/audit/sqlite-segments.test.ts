// The SQLite store's layout: narrow rows pointing into per-day segment files, text search over
// the segments, filters helped by the rollups, hourly rollups written after the hour, and
// what a crash can leave behind.
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequestContext } from '../../core/context.js';
import type { Provider, Target } from '../../core/provider.js';
import type { RouteSpec } from '../../core/routes.js';
import { emptyUsage } from '../../core/types/usage.js';
import type { AuditEntry } from './entry.js';
import { materialize, recordOf, toEntry } from './entry.js';
import { entryOf, recordFromEntry } from './entry-record.js';
import { migrate } from './sqlite-schema.js';
import { SqliteAuditStore } from './sqlite-store.js';
import type { AuditFilter } from './store.js';
import { syntheticEntry } from './synthetic-entry.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// 2025-03-10T00:00:00Z.
const T0 = Date.UTC(2025, 2, 10);

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

/** The filter applied the slow, obvious way, newest first (ties: the later insert first). */
function bruteQuery(inserted: readonly AuditEntry[], filter: AuditFilter): string[] {
  const has = (e: AuditEntry, name: string, value: string): boolean => {
    const v = e.labels[name];
    return v === value || (Array.isArray(v) && v.includes(value));
  };
  const q = filter.q?.toLowerCase();
  const inBody = (body: string | null): boolean => q !== undefined && body !== null && body.toLowerCase().includes(q);
  return inserted
    .map((e, order) => ({ e, order }))
    .filter(({ e }) => filter.model === undefined || (e.resolved_model ?? e.model) === filter.model)
    .filter(({ e }) => filter.key === undefined || e.key_id === filter.key)
    .filter(({ e }) => filter.provider === undefined || e.provider === filter.provider)
    .filter(({ e }) => filter.status === undefined || (e.status >= filter.status[0] && e.status <= filter.status[1]))
    .filter(({ e }) => (filter.labels ?? []).every((l) => has(e, l.name, l.value)))
    .filter(({ e }) => (filter.from === undefined || e.ts >= filter.from) && (filter.to === undefined || e.ts < filter.to))
    .filter(({ e }) => q === undefined || inBody(e.request_body) || inBody(e.response_body))
    .sort((a, b) => b.e.ts - a.e.ts || b.order - a.order)
    .map(({ e }) => e.id);
}

function allPages(store: SqliteAuditStore, filter: AuditFilter, limit: number): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = store.query(filter, cursor, limit);
    ids.push(...page.data.map((e) => e.id));
    cursor = page.next_cursor;
  } while (cursor !== null);
  return ids;
}

describe('audit SQLite store: segments', () => {
  let dir: string;
  let store: SqliteAuditStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-audit-segments-'));
    store = new SqliteAuditStore(join(dir, 'sluice.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends each entry to the segment file of its UTC day, owner-only, and reads it back', () => {
    const a = syntheticEntry({ id: 'd1', ts: T0 + DAY - 1 });
    const b = syntheticEntry({ id: 'd2', ts: T0 + DAY, request_body: 'ünïcödé ✓ "quoted"\n{', response_body: null });
    store.insert([a, b]);
    expect(readdirSync(join(dir, 'audit')).sort()).to.deep.equal(['2025-03-10.seg', '2025-03-11.seg']);
    expect(statSync(join(dir, 'audit')).mode & 0o777).to.equal(0o700);
    expect(statSync(join(dir, 'audit', '2025-03-10.seg')).mode & 0o777).to.equal(0o600);
    expect(store.get('d1')).to.deep.equal(a);
    expect(store.get('d2')).to.deep.equal(b);
    // Narrow rows: no body, header or JSON in the database.
    const db = new Database(join(dir, 'sluice.db'), { readonly: true });
    try {
      const columns = (db.prepare('PRAGMA table_info(audit_entries)').all() as Array<{ name: string }>).map((c) => c.name);
      expect(columns).to.deep.equal(['seq', 'id', 'ts', 'model', 'provider', 'key_id', 'status', 'input_tokens', 'output_tokens', 'total_tokens', 'cost_pico', 'labels', 'off', 'len']);
    } finally {
      db.close();
    }
  });

  it('lays records out as documented: head line, the bodies as they are, a newline; batch after batch', () => {
    const records = [
      { ...recordFromEntry(syntheticEntry({ id: 'l1', ts: T0 + 1 })), request_body: Buffer.from('{"q":"bytes ✓"}'), response_body: Buffer.from('{"a":1}') },
      { ...recordFromEntry(syntheticEntry({ id: 'l2', ts: T0 + 2 })), request_body: 'text ü', response_body: null },
      { ...recordFromEntry(syntheticEntry({ id: 'l3', ts: T0 + 3 })), request_body: null, response_body: '{"streamed":"ö"}' },
      { ...recordFromEntry(syntheticEntry({ id: 'l4', ts: T0 + 4 })), request_body: null, response_body: null },
    ];
    store.insert(records.slice(0, 3));
    store.insert(records.slice(3));
    const size = (body: Buffer | string | null): number => (body === null ? -1 : Buffer.byteLength(body));
    const expected = records.map((r) => `[${JSON.stringify(r.id)},${size(r.request_body)},${size(r.response_body)},${r.detail}]\n${r.request_body ?? ''}${r.response_body ?? ''}\n`).join('');
    expect(readFileSync(join(dir, 'audit', '2025-03-10.seg'), 'utf8')).to.equal(expected);
    for (const r of records) expect(store.get(r.id)).to.deep.equal(entryOf(r));
  });

  it('stores what the writer captured: body bytes as received and sent, cut at the cap', () => {
    const route: RouteSpec = { method: 'POST', path: '/v1/chat/completions', access: 'client', operation: 'chat', body: 'json', streamFormat: null, handler: null };
    const target: Target = { provider: { name: 'demo', type: 'demo', operations: {} } as Provider, model: 'echo', id: 'demo/echo', metadata: null };
    const req = { method: 'POST', url: route.path, headers: { authorization: 'Bearer sk-secret', 'content-type': 'application/json' }, socket: { remoteAddress: '10.0.0.9' } } as unknown as IncomingMessage;
    const ctx = new RequestContext(req, {} as ServerResponse, route, {}, route.path);
    ctx.target = target;
    ctx.model = 'demo/echo';
    ctx.status = 200;
    ctx.rawBody = Buffer.from('{"model":"demo/echo","messages":[{"role":"user","content":"héllo wörld"}]}');
    ctx.responseBody = Buffer.from('{"id":"chatcmpl-1","choices":[{"message":{"content":"ünïcödé"}}]}');
    const usage = emptyUsage();
    usage.input_tokens = 3;
    usage.total_tokens = 3;
    usage.raw = { prompt_tokens: 3 };
    ctx.usage = usage;
    ctx.cost = { total_usd: '0.00000045', source: 'computed', pico_usd: '450000', lines: [] };
    ctx.attempts.push({ provider: 'demo', model: 'echo', status: 200, error: null, duration_ms: 0.123456789, queued_ms: 0 });
    for (const maxBodyBytes of [null, 40]) {
      const capture = toEntry(ctx, { trustProxy: false });
      const record = recordOf(capture, { maxBodyBytes });
      expect(Buffer.isBuffer(record.request_body)).to.equal(true);
      const id = `w${String(maxBodyBytes)}`;
      record.id = id;
      store.insert([record]);
      expect(store.get(id)).to.deep.equal({ ...materialize(capture, { maxBodyBytes }), id });
    }
    expect(store.get('w40')).to.include({ request_body_truncated: true, response_body_truncated: true });
    expect(store.get('wnull')!.request_headers['authorization']).to.equal('[redacted]');
  });

  it('never points a row at bytes that were not written: a failed batch leaves only unused bytes', () => {
    store.insert([syntheticEntry({ id: 'ok1', ts: T0 + 1 })]);
    // status is NOT NULL: the transaction fails after the batch's bytes reached the file.
    const broken = recordFromEntry(syntheticEntry({ id: 'bad', ts: T0 + 2 }));
    (broken as { status: unknown }).status = null;
    expect(() => store.insert([syntheticEntry({ id: 'lost', ts: T0 + 3 }), broken])).to.throw(/NOT NULL/);
    expect(store.get('lost')).to.equal(null);
    // The retry stores the entry once; the earlier bytes are never read.
    store.insert([syntheticEntry({ id: 'lost', ts: T0 + 3 })]);
    expect(store.query({}, null, 10).data.map((e) => e.id)).to.deep.equal(['lost', 'ok1']);
    expect(store.get('lost')?.id).to.equal('lost');
  });

  it('skips what a crash left at the end of a segment file, and appends after it', () => {
    store.insert([syntheticEntry({ id: 'before', ts: T0 + 1 })]);
    store.close();
    // A batch written but never committed: bytes, no rows (they may even match a search).
    appendFileSync(join(dir, 'audit', '2025-03-10.seg'), '["ghost",3,-1,[1]]\nneedle-in-the-ghost\n');
    store = new SqliteAuditStore(join(dir, 'sluice.db'));
    store.insert([syntheticEntry({ id: 'after', ts: T0 + 2, request_body: 'a needle here' })]);
    expect(store.get('before')?.id).to.equal('before');
    expect(store.get('after')?.request_body).to.equal('a needle here');
    expect(store.query({ q: 'needle' }, null, 10).data.map((e) => e.id)).to.deep.equal(['after']);
  });

  it('lists an entry whose bytes were lost (a segment cut short by a power cut) from its row', () => {
    store.insert([syntheticEntry({ id: 'kept', ts: T0 + 1 }), syntheticEntry({ id: 'cut', ts: T0 + 2, key_id: 'k9', status: 429 }), syntheticEntry({ id: 'bodies', ts: T0 + 3 })]);
    const db = new Database(join(dir, 'sluice.db'), { readonly: true });
    const at = (id: string): { off: number; len: number } => db.prepare('SELECT off, len FROM audit_entries WHERE id = ?').get(id) as { off: number; len: number };
    const cut = at('cut');
    const bodies = at('bodies');
    db.close();
    // The last record loses only its bodies; the one before it loses its head as well (the
    // file is cut short, then the last record's bytes land beyond the cut).
    const file = join(dir, 'audit', '2025-03-10.seg');
    truncateSync(file, bodies.off + bodies.len - 10);
    expect(store.get('bodies')).to.include({ id: 'bodies', request_body: null, response_body: null, method: 'POST' });
    expect(store.query({}, null, 1).data[0]).to.include({ id: 'bodies', method: 'POST' });
    truncateSync(file, cut.off + 5);
    const page = store.query({}, null, 10).data;
    expect(page.map((e) => e.id)).to.deep.equal(['bodies', 'cut', 'kept']);
    expect(page[1]).to.include({ id: 'cut', key_id: 'k9', status: 429, method: '', duration_ms: null });
    expect(store.get('cut')).to.include({ id: 'cut', status: 429, request_body: null, response_body: null });
    expect(store.get('kept')?.method).to.equal('POST');
  });

  describe('text search (q) over the segments', () => {
    it('matches either body, ASCII letters in any case, nothing else', () => {
      store.insert([
        syntheticEntry({ id: 's1', ts: T0 + 1, request_body: 'The Quick Brown Fox', response_body: null }),
        syntheticEntry({ id: 's2', ts: T0 + 2, request_body: null, response_body: 'jumps over the LAZY dog' }),
        syntheticEntry({ id: 's3', ts: T0 + 3, request_body: 'café', response_body: 'CAFÉ' }),
        // The two bodies end and start so that a match would straddle them.
        syntheticEntry({ id: 's4', ts: T0 + 4, request_body: 'xxab', response_body: 'cdxx' }),
        syntheticEntry({ id: 's6', ts: T0 + 6, request_body: 'price: (a+b)*[c]? \\ /x/ ^$ {1,2} a|b.' }),
        // Only in a header and in the summary, never in a body.
        syntheticEntry({ id: 's5', ts: T0 + 5, request_headers: { 'x-note': 'hidden-header-text' }, key_name: 'summary-only-text' }),
      ]);
      const ids = (q: string): string[] => store.query({ q }, null, 10).data.map((e) => e.id);
      expect(ids('quick brown')).to.deep.equal(['s1']);
      expect(ids('lazy DOG')).to.deep.equal(['s2']);
      expect(ids('CAFÉ')).to.deep.equal(['s3']);
      // Only ASCII letters fold, as with SQL LIKE: é and É differ.
      expect(ids('cafÉ')).to.deep.equal(['s3']);
      expect(ids('Café')).to.deep.equal(['s3']);
      expect(ids('abcd')).to.deep.equal([]);
      // Every character is literal.
      expect(ids('(A+B)*[C]? \\ /X/ ^$ {1,2} A|B.')).to.deep.equal(['s6']);
      expect(ids('a.b')).to.deep.equal([]);
      expect(ids('hidden-header-text')).to.deep.equal([]);
      expect(ids('summary-only-text')).to.deep.equal([]);
      // syntheticEntry's own bodies.
      expect(ids('about entry s')).to.deep.equal(['s6', 's5']);
    });

    it('pages through many megabytes newest first, with filters and a time window', () => {
      const random = prng(11);
      const inserted: AuditEntry[] = [];
      const filler = 'lorem ipsum dolor sit amet '.repeat(80);
      for (let i = 0; i < 3000; i++) {
        const match = random() < 0.15;
        inserted.push(
          syntheticEntry({
            id: `m${i}`,
            ts: T0 + Math.floor(i / 3) * 7_000 + Math.floor(random() * 3),
            key_id: random() < 0.5 ? 'k1' : 'k2',
            request_body: `${filler}${match && random() < 0.5 ? ' The Needle ' : ''}${i}`,
            response_body: `${match ? 'a NEEDLE found ' : ''}${filler}`,
          }),
        );
      }
      // Out of time order across batches, as late requests arrive.
      for (let i = 0; i < inserted.length; i += 100) store.insert(inserted.slice(i, i + 100).reverse());
      const order = inserted.slice();
      for (let i = 0; i < order.length; i += 100) order.splice(i, 100, ...order.slice(i, i + 100).reverse());
      for (const filter of [{ q: 'needle' }, { q: 'needle', key: 'k2' }, { q: 'the needle', from: T0 + HOUR, to: T0 + 3 * HOUR }, { q: 'absent text' }] as AuditFilter[]) {
        expect(allPages(store, filter, 37)).to.deep.equal(bruteQuery(order, filter));
      }
    });
  });

  describe('filters helped by the rollups', () => {
    it('skips the rolled-up hours without the value and finds the rest, before and after the roll', async () => {
      const random = prng(5);
      const inserted: AuditEntry[] = [];
      for (let i = 0; i < 2000; i++) {
        const hour = Math.floor(random() * 48);
        const rare = hour === 3 || hour === 20 || hour === 47;
        inserted.push(
          syntheticEntry({
            id: `h${i}`,
            ts: T0 + hour * HOUR + Math.floor(random() * HOUR),
            key_id: rare && random() < 0.3 ? 'rare' : 'common',
            labels: random() < 0.5 ? { team: random() < 0.1 ? 'tiny' : 'big', env: '' } : {},
            status: random() < 0.05 ? 503 : 200,
          }),
        );
      }
      store.insert(inserted);
      const filters: AuditFilter[] = [
        { key: 'rare' },
        { key: 'nobody' },
        { labels: [{ name: 'team', value: 'tiny' }] },
        { labels: [{ name: 'env', value: '' }] },
        { key: 'rare', status: [500, 599] },
        { model: 'demo/echo', from: T0 + 10 * HOUR + 123, to: T0 + 30 * HOUR },
      ];
      const check = (): void => {
        for (const filter of filters) expect(allPages(store, filter, 25), JSON.stringify(filter)).to.deep.equal(bruteQuery(inserted, filter));
      };
      check();
      await store.maintain();
      check();
    });
  });

  describe('rollups summed in memory, written every minute, rebuilt after a crash', () => {
    const requestsIn = (s: SqliteAuditStore, from: number, to: number): number => s.usage('provider', from, to).reduce((n, r) => n + r.requests, 0);
    const cellRequests = (hour: number): number | undefined => {
      const db = new Database(join(dir, 'sluice.db'), { readonly: true });
      try {
        return (db.prepare("SELECT requests FROM usage_rollup WHERE dim = 'all' AND bucket_hour = ?").get(hour) as { requests: number } | undefined)?.requests;
      } finally {
        db.close();
      }
    };
    // A process that stores entries and dies without closing its store: the sums it kept in
    // memory are lost, the rows are not.
    const crashAfter = (entries: AuditEntry[]): void => {
      const batch = join(dir, 'batch.json');
      writeFileSync(batch, JSON.stringify(entries));
      const script = `
        import { readFileSync } from 'node:fs';
        import { SqliteAuditStore } from ${JSON.stringify(new URL('./sqlite-store.ts', import.meta.url).href)};
        const store = new SqliteAuditStore(${JSON.stringify(join(dir, 'sluice.db'))});
        store.insert(JSON.parse(readFileSync(${JSON.stringify(batch)}, 'utf8')));
        process.exit(0);`;
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    };

    it('answers the same before and after the sums are written, and counts a late entry once', async () => {
      store.insert([0, 1, 2].map((i) => syntheticEntry({ id: `a${i}`, ts: T0 + i * HOUR + 10, labels: { team: 'ml' } })));
      const before = store.usage('label:team', T0, T0 + 3 * HOUR);
      expect(cellRequests(T0)).to.equal(undefined);
      await store.maintain();
      expect(cellRequests(T0)).to.equal(1);
      expect(store.usage('label:team', T0, T0 + 3 * HOUR)).to.deep.equal(before);
      // A request logged late for an hour already written: summed again, written again.
      store.insert([syntheticEntry({ id: 'late', ts: T0 + 30, labels: { team: 'ml' } })]);
      expect(requestsIn(store, T0, T0 + HOUR)).to.equal(2);
      await store.maintain();
      expect(cellRequests(T0)).to.equal(2);
      expect(store.usage('label:team', T0, T0 + 3 * HOUR)[0]).to.include({ value: 'ml', requests: 4 });
    });

    it('writes what is in memory when closed', () => {
      store.insert([syntheticEntry({ id: 'c1', ts: T0 + 10 })]);
      store.close();
      expect(cellRequests(T0)).to.equal(1);
      store = new SqliteAuditStore(join(dir, 'sluice.db'));
    });

    it('rebuilds the hours a crash left incomplete, from their rows, exactly', async function () {
      this.timeout(20_000);
      store.insert([syntheticEntry({ id: 'early', ts: T0 + 5 })]);
      await store.maintain();
      store.close();
      // More rows in one hour than one step of the rebuild, so it yields half-way.
      crashAfter(Array.from({ length: 5000 }, (_, i) => syntheticEntry({ id: `r${i}`, ts: T0 + 10 + Math.floor((i / 5000) * (HOUR - 20)) })));
      expect(cellRequests(T0)).to.equal(1);
      store = new SqliteAuditStore(join(dir, 'sluice.db'));
      // Exact before the rebuild (those hours come from the rows)...
      expect(requestsIn(store, T0, T0 + HOUR)).to.equal(5001);
      const rebuilding = store.maintain();
      await new Promise((resolve) => setImmediate(resolve));
      // ...during it (an entry behind the part already scanned is added once it commits)...
      store.insert([syntheticEntry({ id: 'during', ts: T0 + 6 })]);
      await rebuilding;
      // ...and after it, from the cells.
      expect(cellRequests(T0)).to.equal(5002);
      expect(requestsIn(store, T0, T0 + HOUR)).to.equal(5002);
    });

    it('writes an entry older than the purged hours straight into the table', async () => {
      store.insert([syntheticEntry({ id: 'old', ts: T0 + 5 }), syntheticEntry({ id: 'new', ts: T0 + 5 * HOUR })]);
      expect(await store.purgeBefore(T0 + 2 * HOUR + 1)).to.equal(1);
      store.insert([syntheticEntry({ id: 'late-old', ts: T0 + 7 })]);
      // In the table at once: no rows left to rebuild that hour from.
      expect(cellRequests(T0)).to.equal(2);
      expect(requestsIn(store, T0, T0 + HOUR)).to.equal(2);
    });
  });

  it('purges whole days: their rows, then their segment files', async () => {
    store.insert([syntheticEntry({ id: 'old', ts: T0 + 5 }), syntheticEntry({ id: 'edge', ts: T0 + DAY + 5 }), syntheticEntry({ id: 'new', ts: T0 + 3 * DAY })]);
    expect(await store.purgeBefore(T0 + DAY + 10)).to.equal(2);
    expect(readdirSync(join(dir, 'audit')).sort()).to.deep.equal(['2025-03-11.seg', '2025-03-13.seg']);
    expect(store.get('new')?.id).to.equal('new');
    // Rolled up before they went: usage over those whole hours still answers.
    expect(store.usage('provider', T0, T0 + HOUR)[0]).to.include({ requests: 1 });
  });

  it('numbers entries of one millisecond apart across batches and restarts', () => {
    store.insert([syntheticEntry({ id: 'x1', ts: T0 + 7 }), syntheticEntry({ id: 'x2', ts: T0 + 7 })]);
    store.close();
    store = new SqliteAuditStore(join(dir, 'sluice.db'));
    store.insert([syntheticEntry({ id: 'x3', ts: T0 + 9 }), syntheticEntry({ id: 'x4', ts: T0 + 7 })]);
    expect(allPages(store, {}, 1)).to.deep.equal(['x3', 'x4', 'x2', 'x1']);
  });

  it('moves version 1 entries to the segments at open, rollups untouched', () => {
    store.close();
    rmSync(join(dir, 'sluice.db'));
    const db = new Database(join(dir, 'sluice.db'));
    migrate(db, 1);
    const entries = [
      syntheticEntry({ id: 'v1a', ts: T0 + 1000, labels: { team: 'ml' }, request_body: 'old body one' }),
      syntheticEntry({ id: 'v1b', ts: T0 + 2 * HOUR, key_id: 'k2', response_body: null }),
    ];
    const insertV1 = db.prepare(`INSERT INTO audit_entries (id, ts, model, provider, key_id, status, stream, cache_hit, input_tokens, output_tokens,
      total_tokens, cost_pico, summary, detail, request_body, response_body) VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertRollup = db.prepare(`INSERT INTO usage_rollup VALUES (?, 'provider', 'demo', 1, ?, ?, ?, ?, 0)`);
    for (const e of entries) {
      const { request_headers, request_body, request_body_truncated, response_body, response_body_truncated, usage, cost, attempts, ...summary } = e;
      const detail = { request_headers, request_body_truncated, response_body_truncated, usage, cost, attempts };
      const seq = insertV1.run(e.id, e.ts, e.model, e.provider, e.key_id, e.status, e.input_tokens, e.output_tokens, e.total_tokens, e.cost_pico, JSON.stringify(summary), JSON.stringify(detail), request_body, response_body).lastInsertRowid;
      db.prepare('INSERT INTO audit_labels VALUES (?, ?, ?)').run(seq, 'team', 'ml');
      insertRollup.run(Math.floor(e.ts / HOUR) * HOUR, e.input_tokens, e.output_tokens, e.total_tokens, e.cost_pico);
    }
    db.close();

    store = new SqliteAuditStore(join(dir, 'sluice.db'));
    expect(store.get('v1a')).to.deep.equal(entries[0]);
    expect(store.get('v1b')).to.deep.equal(entries[1]);
    expect(store.query({ q: 'old body' }, null, 10).data.map((e) => e.id)).to.deep.equal(['v1a']);
    // Counted once: the rollups version 1 wrote, and no raw hours on top.
    expect(store.usage('provider', T0, T0 + 3 * HOUR)[0]).to.include({ value: 'demo', requests: 2 });
    const check = new Database(join(dir, 'sluice.db'), { readonly: true });
    try {
      expect(check.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%_v1'").all()).to.deep.equal([]);
      // Every hour complete in the table.
      expect(check.prepare("SELECT value FROM audit_state WHERE name = 'rolled_until'").get()).to.deep.equal({ value: Number.MAX_SAFE_INTEGER });
    } finally {
      check.close();
    }
  });

  it('checkpoints the WAL from a worker thread when asked to', async function () {
    this.timeout(10_000);
    store.close();
    store = new SqliteAuditStore(join(dir, 'sluice.db'), { checkpointWorker: true, onBackgroundError: (m) => expect.fail(m) });
    const file = join(dir, 'sluice.db');
    const empty = statSync(file).size;
    store.insert(Array.from({ length: 3000 }, (_, i) => syntheticEntry({ id: `c${i}`, ts: T0 + i })));
    // The rows sit in the WAL until a checkpoint copies them into the database file.
    const deadline = Date.now() + 5000;
    while (statSync(file).size <= empty && Date.now() < deadline) await sleep(50);
    expect(statSync(file).size).to.be.greaterThan(empty);
    expect(existsSync(`${file}-wal`)).to.equal(true);
    expect(readFileSync(file).length).to.be.greaterThan(0);
  });
});
