// A data directory written by the segment-file store (test/fixtures/audit-v3, made with the code
// of that store) opened by a gateway with this one: every entry and every usage row as that
// store answered them, its spill file stored too, the old files gone.
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withPluginOptions } from '../../../../test/helpers/plugins.js';
import { startTestGateway } from '../../../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../../../test/helpers/start-gateway.js';
import { formatUsd } from '../../../pricing/money.js';
import type { AuditEntryView } from '../../routes/routes.js';
import { AUDIT_ON_POSTGRES } from '../../../../test/helpers/postgres.js';

const FIXTURE = new URL('../../../../test/fixtures/audit-v3/', import.meta.url);

interface Expected {
  from: number;
  to: number;
  entries: Array<Omit<AuditEntryView, 'trace_id'>>;
  usage: Record<string, Array<{ value: string | null; requests: number; input_tokens: number; output_tokens: number; total_tokens: number; cost_pico: string; unpriced_requests: number }>>;
}

// The upgrade is of a SQLite data directory: a gateway on PostgreSQL has none to upgrade.
(AUDIT_ON_POSTGRES ? describe.skip : describe)('upgrading a data directory of the segment-file store @integration', function () {
  this.timeout(60_000);
  const expected = JSON.parse(readFileSync(new URL('expected.json', FIXTURE), 'utf8')) as Expected;
  let dataDir: string;
  let gw: TestGateway;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sluice-upgrade-'));
    cpSync(new URL('data', FIXTURE), dataDir, { recursive: true });
    // The fixture's entries are from 2026-11; retention would purge them as the years pass.
    gw = await startTestGateway({ config: { plugins: withPluginOptions('audit', { retention_days: 0 }) }, dataDir });
  });
  after(async () => {
    await gw.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function json<T>(path: string): Promise<T> {
    const res = await gw.fetch(path);
    expect(res.status, await res.clone().text()).to.equal(200);
    return (await res.json()) as T;
  }

  it('keeps every entry, in the same order, field for field', async () => {
    expect(expected.entries).to.have.length(45);
    const list = await json<{ data: Array<{ id: string }> }>('/admin/audit?limit=500');
    expect(list.data.map((e) => e.id)).to.deep.equal(expected.entries.map((e) => e.id));
    // Fields the entries gained since: no trace id, and no wait for a connection (queued_ms 0).
    for (const e of expected.entries) {
      const now = { ...e, trace_id: null, attempts: e.attempts.map((a) => ({ ...a, queued_ms: 0 })) };
      expect(await json<AuditEntryView>(`/admin/audit/${encodeURIComponent(e.id)}`), e.id).to.deep.equal(now);
    }
  });

  // The segment store predates the response cache: no call of it was a hit.
  it('answers usage exactly as before, for every grouping', async () => {
    const window = `from=${new Date(expected.from).toISOString()}&to=${new Date(expected.to).toISOString()}`;
    for (const [groupBy, rows] of Object.entries(expected.usage)) {
      const usage = await json<{ data: unknown[] }>(`/admin/usage?group_by=${groupBy}&${window}`);
      expect(usage.data, groupBy).to.deep.equal(rows.map(({ cost_pico, ...r }) => ({ ...r, cost_usd: formatUsd(BigInt(cost_pico)) })).map(({ value, requests, input_tokens, output_tokens, total_tokens, cost_usd, unpriced_requests }) => ({ value, requests, input_tokens, output_tokens, total_tokens, cost_usd, unpriced_requests, cache_hits: 0 })));
    }
  });

  it('leaves no segment files, spill file or old tables behind, and records the migration', () => {
    expect(existsSync(join(dataDir, 'audit'))).to.equal(false);
    expect(existsSync(join(dataDir, 'audit-spill.jsonl'))).to.equal(false);
    const db = new Database(join(dataDir, 'sluice.db'), { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('legacy_audit_entries', 'audit_ids', 'audit_state')").pluck().all();
      expect(tables).to.deep.equal([]);
      expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).to.deep.equal([
        { version: 1, name: 'audit entries, labels, body search, hourly usage rollups' },
        { version: 2, name: 'store settings: whether the body index is kept' },
        { version: 3, name: 'api keys' },
        { version: 4, name: 'cache hits in the usage rollups' },
      ]);
    } finally {
      db.close();
    }
  });
});
