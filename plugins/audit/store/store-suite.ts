// The suite every Store implementation passes (SQLite now, PostgreSQL next): call
// describeStore() from the implementation's own test file with a fixture that opens a fresh,
// empty store, and reopens the same one after a close. Usage is checked against sums computed
// here from the entries themselves, so both implementations are held to the same numbers.
import { expect } from 'chai';
import { isGatewayError } from '../../../core/errors.js';
import type { AuditEntry, AuditSummary } from '../audit-entry.js';
import { isUnpriced, usageModel } from '../audit-entry.js';
import type { AuditFilter, NewKey, Store, UsageBucket, UsageGroupBy, UsageRow } from './store.js';
import { syntheticEntry } from './synthetic-entry.js';
import { sortUsage } from './usage-sums.js';

export interface StoreFixture {
  /** Opens the store under test: empty the first time, the same data after a close. */
  open(): Promise<Store>;
  /** Removes what the fixture made (files, schema). */
  destroy(): Promise<void>;
}

const HOUR = 3_600_000;
// 2026-03-02T10:17:00Z: not on an hour, so windows have partial hours at both edges.
const T0 = Date.UTC(2026, 2, 2, 10, 17);

/** A uuid-shaped id whose order follows n. */
function idOf(n: number): string {
  return `0190${String(n).padStart(4, '0')}-0000-7000-8000-${String(n).padStart(12, '0')}`;
}

/** A varied set: 4 keys, 3 models (one never resolved), labels with several values, errors, unpriced calls, cache hits. */
export function variedEntries(count: number, start = T0): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (let i = 0; i < count; i++) {
    const labels: AuditEntry['labels'] = {};
    if (i % 3 === 0) labels['team'] = i % 2 === 0 ? 'ml' : 'web';
    if (i % 5 === 0) labels['env'] = ['prod', 'eu'];
    if (i % 7 === 0) labels['constructor'] = 'yes';
    const noProvider = i % 11 === 0;
    entries.push(
      syntheticEntry({
        id: idOf(i),
        // About 20 minutes apart, with a few sharing a millisecond.
        ts: start + Math.floor(i / 2) * 1_234_567,
        key_id: `key_${i % 4}`,
        model: i % 13 === 0 ? null : i % 2 === 0 ? 'demo/echo' : 'demo/lorem',
        resolved_model: noProvider ? null : i % 2 === 0 ? 'demo/echo' : 'virtual/fast',
        provider: noProvider ? null : 'demo',
        status: noProvider ? 404 : i % 9 === 0 ? 502 : 200,
        input_tokens: noProvider ? 0 : 10 + i,
        output_tokens: noProvider ? 0 : 2 * i,
        total_tokens: noProvider ? 0 : 10 + 3 * i,
        // Beyond 2^53 once summed: exactness needs integers, not doubles.
        cost_pico: noProvider || i % 8 === 0 ? null : 100_000_000_000_000 + i,
        cache_hit: !noProvider && i % 6 === 1,
        labels,
        trace_id: i % 4 === 0 ? `4bf92f3577b34da6a3ce929d0e0e${String(i).padStart(4, '0')}` : null,
        request_body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: `question ${i}: 100% of_it${i % 6 === 0 ? ' ünïcode é' : ''}` }] }),
        response_body: i % 10 === 0 ? null : `{"answer":"Reply number ${i}"}`,
      }),
    );
  }
  return entries;
}

/** Usage as the contract defines it, computed from the entries. */
export function expectedUsage(entries: readonly AuditEntry[], groupBy: UsageGroupBy | null, from: number, to: number, bucket: UsageBucket | null = null): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  const add = (value: string | null, e: AuditEntry): void => {
    const start = bucketStart(e.ts, bucket, from);
    const key = `${start} ${value}`;
    let row = rows.get(key);
    if (row === undefined) rows.set(key, (row = { bucket: start, value, requests: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost_pico: 0n, unpriced_requests: 0, cache_hits: 0 }));
    row.requests++;
    row.input_tokens += e.input_tokens;
    row.output_tokens += e.output_tokens;
    row.total_tokens += e.total_tokens;
    row.cost_pico += BigInt(e.cost_pico ?? 0);
    if (isUnpriced(e)) row.unpriced_requests++;
    if (e.cache_hit) row.cache_hits++;
  };
  for (const e of entries) {
    if (e.ts < from || e.ts >= to) continue;
    if (groupBy === null) add(null, e);
    else if (groupBy === 'key') add(e.key_id, e);
    else if (groupBy === 'model') add(usageModel(e), e);
    else if (groupBy === 'provider') add(e.provider, e);
    else {
      const name = groupBy.slice('label:'.length);
      const value = Object.hasOwn(e.labels, name) ? e.labels[name] : undefined;
      const values = [...new Set(value === undefined ? [] : typeof value === 'string' ? [value] : value)].filter((v) => v !== '');
      if (values.length === 0) add(null, e);
      for (const v of values) add(v, e);
    }
  }
  return sortUsage([...rows.values()]);
}

/** The UTC hour or day `ts` falls in, from the calendar (not the stores' arithmetic); the window's start without a bucket. */
function bucketStart(ts: number, bucket: UsageBucket | null, from: number): number {
  if (bucket === null) return from;
  const d = new Date(ts);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), bucket === 'hour' ? d.getUTCHours() : 0);
}

/** A key with every field set, distinct by n. */
export function newKey(n: number, overrides: Partial<NewKey> = {}): NewKey {
  return {
    id: `key_${n}`,
    secret_hash: n.toString(16).padStart(64, 'a'),
    name: `key number ${n}`,
    labels: { team: `team-${n}`, 'x-user': 'ü ✓' },
    budget: { amount_usd: 12.5, period: 'monthly' },
    rate_limit: { rpm: 60, tpm: null, concurrent: 4 },
    allowed_models: ['openai/*', 'demo/echo'],
    expires_at: T0 + n * HOUR,
    disabled: false,
    admin: n % 2 === 1,
    created_at: T0 + n,
    ...overrides,
  };
}

function summaryOf(e: AuditEntry): AuditSummary {
  const { request_headers: _h, request_body: _rq, request_body_truncated: _rqt, response_body: _rs, response_body_truncated: _rst, usage: _u, cost: _c, attempts: _a, ...summary } = e;
  return summary;
}

function newestFirst(entries: readonly AuditEntry[]): AuditEntry[] {
  // Insertion order breaks ties of one millisecond: the later insert is newer.
  return entries.map((e, i) => ({ e, i })).sort((a, b) => b.e.ts - a.e.ts || b.i - a.i).map((x) => x.e);
}

export function describeStore(name: string, fixture: StoreFixture): void {
  describe(`store suite: ${name}`, function () {
    this.timeout(30_000);
    let store: Store;

    beforeEach(async () => {
      store = await fixture.open();
    });
    afterEach(async () => {
      await store.close();
      await fixture.destroy();
    });

    async function ids(filter: AuditFilter, limit = 500): Promise<string[]> {
      return (await store.audit.query(filter, null, limit)).data.map((e) => e.id);
    }

    it('gives back an inserted entry exactly, and null for an unknown id', async () => {
      const [e] = variedEntries(1);
      const entry = { ...e!, labels: { team: 'ml', env: ['prod', 'eu'] }, trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', error: { type: 'api_error', code: 'upstream_failed', message: 'no ✓', status: 502, provider: 'demo' } };
      await store.audit.insert([entry]);
      expect(await store.audit.get(entry.id)).to.deep.equal(entry);
      expect(await store.audit.get('no-such-id')).to.equal(null);
    });

    it('skips an id it has already, without counting it twice', async () => {
      const entries = variedEntries(3);
      await store.audit.insert(entries.slice(0, 2));
      await store.audit.insert(entries);
      await store.audit.insert([{ ...entries[0]!, status: 500 }]);
      expect(await ids({})).to.deep.equal(newestFirst(entries).map((e) => e.id));
      expect((await store.audit.get(entries[0]!.id))!.status).to.equal(entries[0]!.status);
      expect(await store.audit.usage('key', T0 - HOUR, T0 + 10 * HOUR)).to.deep.equal(expectedUsage(entries, 'key', T0 - HOUR, T0 + 10 * HOUR));
    });

    it('lists summaries newest first, and filters by every field', async () => {
      const entries = variedEntries(60);
      await store.audit.insert(entries.slice(0, 30));
      await store.audit.insert(entries.slice(30));
      const all = newestFirst(entries);
      const page = await store.audit.query({}, null, 500);
      expect(page.next_cursor).to.equal(null);
      expect(page.data).to.deep.equal(all.map(summaryOf));
      const match = (pred: (e: AuditEntry) => boolean): string[] => all.filter(pred).map((e) => e.id);
      expect(await ids({ model: 'virtual/fast' })).to.deep.equal(match((e) => usageModel(e) === 'virtual/fast'));
      expect(await ids({ model: 'demo/echo' })).to.deep.equal(match((e) => usageModel(e) === 'demo/echo'));
      expect(await ids({ provider: 'demo' })).to.deep.equal(match((e) => e.provider === 'demo'));
      expect(await ids({ key: 'key_2' })).to.deep.equal(match((e) => e.key_id === 'key_2'));
      expect(await ids({ status: [500, 599] })).to.deep.equal(match((e) => e.status >= 500));
      expect(await ids({ status: [404, 404] })).to.deep.equal(match((e) => e.status === 404));
      expect(await ids({ labels: [{ name: 'env', value: 'eu' }] })).to.deep.equal(match((e) => e.labels['env'] !== undefined));
      expect(await ids({ labels: [{ name: 'team', value: 'ml' }, { name: 'env', value: 'prod' }] })).to.deep.equal(match((e) => e.labels['team'] === 'ml' && e.labels['env'] !== undefined));
      expect(await ids({ labels: [{ name: 'constructor', value: 'yes' }] })).to.deep.equal(match((e) => Object.hasOwn(e.labels, 'constructor')));
      expect(await ids({ labels: [{ name: 'hasOwnProperty', value: 'yes' }] })).to.deep.equal([]);
      const from = T0 + 3 * HOUR + 1;
      const to = T0 + 7 * HOUR;
      expect(await ids({ from, to, key: 'key_1' })).to.deep.equal(match((e) => e.ts >= from && e.ts < to && e.key_id === 'key_1'));
    });

    it('searches the bodies for a literal substring, ASCII case-insensitively', async () => {
      const entries = variedEntries(40);
      await store.audit.insert(entries);
      const all = newestFirst(entries);
      const bodies = (e: AuditEntry): string => `${e.request_body ?? ''}\u0000${e.response_body ?? ''}`;
      const match = (needle: string): string[] => all.filter((e) => bodies(e).toLowerCase().includes(needle.toLowerCase())).map((e) => e.id);
      expect(await ids({ q: 'REPLY NUMBER 3' })).to.deep.equal(match('reply number 3'));
      expect(await ids({ q: 'question 17:' })).to.deep.equal(match('question 17:'));
      // % and _ are not wildcards; short needles work too.
      expect(await ids({ q: '100% of_' })).to.have.length(40);
      expect(await ids({ q: '0%' })).to.deep.equal(match('0%'));
      expect(await ids({ q: '%' })).to.have.length(40);
      expect(await ids({ q: 'o_i' })).to.have.length(0);
      // Not across the two bodies.
      expect(await ids({ q: '}]}{"answer' })).to.deep.equal([]);
      expect(await ids({ q: 'Reply number 2', key: 'key_1' })).to.deep.equal(all.filter((e) => e.key_id === 'key_1' && bodies(e).includes('Reply number 2')).map((e) => e.id));
      expect(await ids({ q: 'nowhere to be found' })).to.deep.equal([]);
      // Inside words, across words, and beyond ASCII.
      for (const needle of ['uestio', 'ply numb', 'ly number 1', 'stion 3', '"content":"q', 'Reply', 'y n', 'é', 'ünï', 'zq']) expect(await ids({ q: needle }), needle).to.deep.equal(match(needle));
    });

    it('pages with a cursor that neither repeats nor skips, even as entries arrive', async () => {
      const entries = variedEntries(25);
      await store.audit.insert(entries);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await store.audit.query({ provider: 'demo' }, cursor, 4);
        seen.push(...page.data.map((e) => e.id));
        cursor = page.next_cursor;
        if (seen.length === 4) await store.audit.insert(variedEntries(30, T0 + 1000 * HOUR).slice(25));
      } while (cursor !== null);
      expect(seen).to.deep.equal(newestFirst(entries).filter((e) => e.provider === 'demo').map((e) => e.id));
    });

    it('refuses a cursor it did not make with a 400 naming the cursor', async () => {
      try {
        await store.audit.query({}, 'not-a-cursor', 10);
        expect.fail('accepted a made-up cursor');
      } catch (err) {
        expect(isGatewayError(err) && err.status === 400 && err.param === 'cursor', String(err)).to.equal(true);
      }
    });

    it('sums usage exactly for any window, grouping and bucket, edges inside hours', async () => {
      const entries = variedEntries(120);
      for (let i = 0; i < entries.length; i += 17) await store.audit.insert(entries.slice(i, i + 17));
      const windows: Array<[number, number]> = [
        [T0 - HOUR, T0 + 100 * HOUR],
        [T0 + 90 * 60_000, T0 + 30 * HOUR + 1],
        [T0 + 5 * 60_000, T0 + 50 * 60_000],
        [Date.UTC(2026, 2, 2, 12), Date.UTC(2026, 2, 3, 3)],
        // No whole hour inside, across an hour's end.
        [Date.UTC(2026, 2, 2, 23, 10), Date.UTC(2026, 2, 3, 0, 40)],
      ];
      for (const [from, to] of windows) {
        for (const groupBy of [null, 'key', 'model', 'provider', 'label:team', 'label:env', 'label:constructor', 'label:hasOwnProperty', 'label:toString'] as const) {
          for (const bucket of [null, 'hour', 'day'] as const) {
            const expected = expectedUsage(entries, groupBy, from, to, bucket);
            expect(await store.audit.usage(groupBy, from, to, bucket), `${groupBy} per ${bucket} over [${from}, ${to})`).to.deep.equal(expected);
          }
        }
      }
    });

    it('puts each call in its UTC hour or day, the edge buckets holding only what lies inside the window', async () => {
      const at = (n: number, ts: number, cost: number | null): AuditEntry => syntheticEntry({ id: idOf(n), ts, provider: 'demo', cost_pico: cost, input_tokens: n, output_tokens: 0, total_tokens: n });
      await store.audit.insert([
        at(1, Date.UTC(2026, 2, 2, 10, 5), 1), // before the window
        at(2, Date.UTC(2026, 2, 2, 10, 50), 20),
        at(3, Date.UTC(2026, 2, 2, 11, 30), 300),
        at(4, Date.UTC(2026, 2, 2, 11, 45), null),
        at(5, Date.UTC(2026, 2, 3, 0, 10), 4_000),
        at(6, Date.UTC(2026, 2, 3, 0, 20), 50_000), // at the window's end: outside
      ]);
      const from = Date.UTC(2026, 2, 2, 10, 30);
      const to = Date.UTC(2026, 2, 3, 0, 20);
      const row = (bucket: number, requests: number, tokens: number, cost: bigint, unpriced = 0): UsageRow => ({
        bucket, value: null, requests, input_tokens: tokens, output_tokens: 0, total_tokens: tokens, cost_pico: cost, unpriced_requests: unpriced, cache_hits: 0,
      });
      expect(await store.audit.usage(null, from, to, 'hour')).to.deep.equal([
        row(Date.UTC(2026, 2, 2, 10), 1, 2, 20n),
        row(Date.UTC(2026, 2, 2, 11), 2, 7, 300n, 1),
        row(Date.UTC(2026, 2, 3, 0), 1, 5, 4_000n),
      ]);
      expect(await store.audit.usage(null, from, to, 'day')).to.deep.equal([row(Date.UTC(2026, 2, 2), 3, 9, 320n, 1), row(Date.UTC(2026, 2, 3), 1, 5, 4_000n)]);
      expect(await store.audit.usage(null, from, to)).to.deep.equal([row(from, 4, 14, 4_320n, 1)]);
      expect(await store.audit.usage('provider', from, to, 'day')).to.deep.equal([
        { ...row(Date.UTC(2026, 2, 2), 3, 9, 320n, 1), value: 'demo' },
        { ...row(Date.UTC(2026, 2, 3), 1, 5, 4_000n), value: 'demo' },
      ]);
    });

    it('reports each provider\'s requests, failures, client errors, durations and last error over a window', async () => {
      const MIN = 60_000;
      let n = 0;
      const at = (ts: number, init: Partial<AuditEntry>): AuditEntry => syntheticEntry({ id: idOf(n++), ts, ...init });
      const failure = (status: number, type: string, code: string | null, provider: string | null, message = `${type} ${status}`): AuditEntry['error'] => ({ type, code, message, status, provider });
      const entries = [
        // alpha: 20 answers of 1.5 .. 20.5 ms: average 11, p95 the 19th, 19.5.
        ...Array.from({ length: 20 }, (_, i) => at(T0 + i * MIN, { provider: 'alpha', duration_ms: i + 1.5 })),
        at(T0 + 5 * MIN, { provider: 'alpha', status: 504, error: null, duration_ms: 300_000 }),
        at(T0 + 10 * MIN, { provider: 'alpha', status: 502, error: failure(502, 'provider_error', null, 'alpha'), duration_ms: 3000 }),
        at(T0 + 20 * MIN, { provider: 'alpha', status: 429, error: failure(429, 'rate_limit_error', 'rate_limit_exceeded', 'alpha', 'slow down') }),
        // The gateway's own refusals and the client's own mistakes are not the provider's.
        at(T0 + 25 * MIN, { provider: 'alpha', status: 429, error: failure(429, 'rate_limit_error', 'budget_exceeded', null) }),
        at(T0 + 30 * MIN, { provider: 'alpha', status: 400, error: failure(400, 'invalid_request_error', null, 'alpha') }),
        at(T0 + 35 * MIN, { provider: 'alpha', status: 499, error: failure(499, 'invalid_request_error', 'client_closed', null) }),
        // A stream its provider broke after the 200 went out: the newest failure.
        at(T0 + 40 * MIN, { provider: 'alpha', status: 200, stream: true, error: failure(502, 'provider_error', 'stream_broken', 'alpha', 'the stream broke') }),
        at(T0 + 45 * MIN, { provider: 'alpha', cache_hit: true, duration_ms: 0.5 }),
        // Outside [T0, T0 + 1 h).
        at(T0 - 1, { provider: 'alpha', status: 502, error: failure(502, 'provider_error', null, 'alpha') }),
        at(T0 + HOUR, { provider: 'alpha', status: 502, error: failure(502, 'provider_error', null, 'alpha') }),
        at(T0 + 50 * MIN, { provider: 'beta', duration_ms: 7.25 }),
        at(T0 + 51 * MIN, { provider: 'beta', duration_ms: null }),
        at(T0 + 52 * MIN, { provider: 'gamma', status: 503, error: failure(503, 'provider_error', 'circuit_open', null, 'every target is out') }),
        at(T0 + 53 * MIN, { provider: null, model: 'nowhere/model', status: 404, error: failure(404, 'not_found_error', 'model_not_found', null) }),
      ];
      await store.audit.insert(entries.slice(0, 13));
      await store.audit.insert(entries.slice(13));
      expect(await store.audit.providerHealth(T0, T0 + HOUR)).to.deep.equal([
        {
          provider: 'alpha',
          requests: 27,
          errors: 4,
          client_errors: 3,
          avg_duration_ms: 11,
          p95_duration_ms: 19.5,
          last_error: { ts: T0 + 40 * MIN, status: 502, code: 'stream_broken', message: 'the stream broke' },
        },
        { provider: 'beta', requests: 2, errors: 0, client_errors: 0, avg_duration_ms: 7.25, p95_duration_ms: 7.25, last_error: null },
        { provider: 'gamma', requests: 1, errors: 1, client_errors: 0, avg_duration_ms: null, p95_duration_ms: null, last_error: { ts: T0 + 52 * MIN, status: 503, code: 'circuit_open', message: 'every target is out' } },
      ]);
      // The 504 without an error object is the newest failure of a window that ends before the others.
      expect((await store.audit.providerHealth(T0, T0 + 6 * MIN))[0]).to.deep.equal({
        provider: 'alpha',
        requests: 7,
        errors: 1,
        client_errors: 0,
        avg_duration_ms: 4,
        p95_duration_ms: 6.5,
        last_error: { ts: T0 + 5 * MIN, status: 504, code: null, message: null },
      });
      expect(await store.audit.providerHealth(T0 + 2 * HOUR, T0 + 3 * HOUR)).to.deep.equal([]);
    });

    it('purges entries started before a time, and keeps whole hours in usage', async () => {
      const entries = variedEntries(50);
      await store.audit.insert(entries);
      const cut = Date.UTC(2026, 2, 2, 16);
      const before = entries.filter((e) => e.ts < cut);
      expect(await store.audit.purgeBefore(cut)).to.equal(before.length);
      expect(await ids({})).to.deep.equal(newestFirst(entries.filter((e) => e.ts >= cut)).map((e) => e.id));
      expect(await store.audit.get(before[0]!.id)).to.equal(null);
      const from = Date.UTC(2026, 2, 2, 11);
      const to = Date.UTC(2026, 2, 3, 6);
      expect(await store.audit.usage('model', from, to)).to.deep.equal(expectedUsage(entries, 'model', from, to));
      expect(await store.audit.usage('model', from, to, 'hour')).to.deep.equal(expectedUsage(entries, 'model', from, to, 'hour'));
      expect(await store.audit.purgeBefore(cut)).to.equal(0);
    });

    it('keeps everything across a close and a reopen, at the same schema version', async () => {
      const entries = variedEntries(10);
      await store.audit.insert(entries);
      const version = store.schemaVersion;
      expect(version).to.be.a('number').and.at.least(1);
      await store.close();
      store = await fixture.open();
      expect(store.schemaVersion).to.equal(version);
      expect(await ids({})).to.deep.equal(newestFirst(entries).map((e) => e.id));
      expect(await store.audit.get(entries[3]!.id)).to.deep.equal(entries[3]);
    });
    describe('keys', () => {
      it('gives back a created key exactly, by id, by secret hash and in the list', async () => {
        const created = await store.keys.create(newKey(1));
        const bare = await store.keys.create(newKey(2, { labels: {}, budget: null, rate_limit: null, allowed_models: null, expires_at: null }));
        expect(created).to.deep.equal({ ...newKey(1), updated_at: T0 + 1, version: 1, deleted: false });
        expect(bare).to.deep.equal({ ...newKey(2, { labels: {}, budget: null, rate_limit: null, allowed_models: null, expires_at: null }), updated_at: T0 + 2, version: 2, deleted: false });
        expect(await store.keys.get('key_1')).to.deep.equal(created);
        expect(await store.keys.findByHash(newKey(2).secret_hash)).to.deep.equal(bare);
        expect(await store.keys.list()).to.deep.equal([created, bare]);
        expect(await store.keys.get('key_9')).to.equal(null);
        expect(await store.keys.findByHash('0'.repeat(64))).to.equal(null);
      });

      it('refuses a second key with the same id or secret hash', async () => {
        await store.keys.create(newKey(1));
        for (const twin of [newKey(1, { secret_hash: 'f'.repeat(64) }), newKey(3, { secret_hash: newKey(1).secret_hash })]) {
          let refused = false;
          await store.keys.create(twin).catch(() => (refused = true));
          expect(refused, twin.id).to.equal(true);
        }
        expect((await store.keys.list()).map((k) => k.id)).to.deep.equal(['key_1']);
      });

      it('changes only the given fields, and a deleted key is gone from every read', async () => {
        await store.keys.create(newKey(1));
        await store.keys.create(newKey(2));
        const changed = await store.keys.update('key_1', { disabled: true, labels: { team: 'web' }, rate_limit: null, expires_at: null }, T0 + HOUR);
        expect(changed).to.deep.equal({ ...newKey(1), disabled: true, labels: { team: 'web' }, rate_limit: null, expires_at: null, updated_at: T0 + HOUR, version: 3, deleted: false });
        expect(await store.keys.get('key_1')).to.deep.equal(changed);
        expect(await store.keys.delete('key_2', T0 + 2 * HOUR)).to.equal(true);
        expect(await store.keys.get('key_2')).to.equal(null);
        expect(await store.keys.findByHash(newKey(2).secret_hash)).to.equal(null);
        expect((await store.keys.list()).map((k) => k.id)).to.deep.equal(['key_1']);
        expect(await store.keys.update('key_2', { name: 'back' }, T0 + 3 * HOUR)).to.equal(null);
        expect(await store.keys.delete('key_2', T0 + 3 * HOUR)).to.equal(false);
        expect(await store.keys.delete('key_9', T0 + 3 * HOUR)).to.equal(false);
      });

      it('lists every change after a version, tombstones included, in order and in pages', async () => {
        for (let n = 1; n <= 4; n++) await store.keys.create(newKey(n));
        await store.keys.update('key_2', { name: 'renamed' }, T0 + HOUR);
        await store.keys.delete('key_3', T0 + HOUR);
        const changes = (await store.keys.changedSince(2, 100)).map((k) => [k.id, k.version, k.deleted, k.name]);
        expect(changes).to.deep.equal([
          ['key_4', 4, false, 'key number 4'],
          ['key_2', 5, false, 'renamed'],
          ['key_3', 6, true, 'key number 3'],
        ]);
        expect((await store.keys.changedSince(0, 2)).map((k) => k.id)).to.deep.equal(['key_1', 'key_4']);
        expect(await store.keys.changedSince(6, 100)).to.deep.equal([]);
        const tombstone = (await store.keys.changedSince(5, 100))[0]!;
        expect(tombstone).to.deep.equal({ ...newKey(3), updated_at: T0 + HOUR, version: 6, deleted: true });
      });

      it('keeps keys across a close and a reopen', async () => {
        const created = await store.keys.create(newKey(1));
        await store.close();
        store = await fixture.open();
        expect(await store.keys.findByHash(created.secret_hash)).to.deep.equal(created);
        expect((await store.keys.create(newKey(2))).version).to.equal(2);
      });
    });
  });
}
