// What the admin endpoints answer in the odd cases (issue 13, items 4 and 8): a usage grouping
// by a label named like an Object.prototype member, and reads while the store refuses writes.
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expectError } from '../../test/helpers/errors.js';
import { memoryLogger } from '../../test/helpers/memory-logger.js';
import { withPluginOptions } from '../../test/helpers/plugins.js';
import { parseSamples, valueOf } from '../../test/helpers/prometheus-text.js';
import { startTestGateway } from '../../test/helpers/start-gateway.js';
import type { TestGateway } from '../../test/helpers/start-gateway.js';
import type { AuditEntryView } from './routes/routes.js';
import { AUDIT_ON_POSTGRES } from '../../test/helpers/postgres.js';

const DEMO_CONFIG = { providers: { demo: { stream_delay_ms: 0 } } };

async function chat(gw: TestGateway, content: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await gw.fetch('/v1/chat/completions', { method: 'POST', headers, body: JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content }] }) });
  expect(res.status).to.equal(200);
  return res.headers.get('x-request-id')!;
}

async function json<T>(gw: TestGateway, path: string): Promise<T> {
  const res = await gw.fetch(path);
  expect(res.status, await res.clone().text()).to.equal(200);
  return (await res.json()) as T;
}

/** A series the metrics plugin serves (the audit writer's counts, process-wide). */
async function counterValue(gw: TestGateway, name: string): Promise<number> {
  const res = await gw.fetch('/metrics');
  expect(res.status).to.equal(200);
  return valueOf(parseSamples(await res.text()), name) ?? NaN;
}

describe('usage by a label named like an Object.prototype member @integration', () => {
  let gw: TestGateway;
  let tagged = '';

  before(async () => {
    gw = await startTestGateway({ config: DEMO_CONFIG, env: { TAGGING_HEADER_1: 'x-team', TAGGING_HEADER_1_PREFIX: 'team', TAGGING_HEADER_2: 'x-ctor', TAGGING_HEADER_2_PREFIX: 'constructor' } });
    await chat(gw, 'plain one');
    await chat(gw, 'plain two', { 'x-team': 'ml' });
    tagged = await chat(gw, 'tagged', { 'x-ctor': 'yes' });
  });
  after(() => gw.close());

  it('answers 200 for label:constructor, label:hasOwnProperty and label:toString, like any label no call carries', async () => {
    type Usage = { data: Array<{ value: string | null; requests: number }> };
    const none = await json<Usage>(gw, '/admin/usage?group_by=label:nosuch');
    expect(none.data.map((r) => [r.value, r.requests])).to.deep.equal([[null, 3]]);
    for (const name of ['hasOwnProperty', 'toString', '__proto__']) {
      expect((await json<Usage>(gw, `/admin/usage?group_by=label:${name}`)).data, name).to.deep.equal(none.data);
    }
    const ctor = await json<Usage>(gw, '/admin/usage?group_by=label:constructor');
    expect(ctor.data.map((r) => [r.value, r.requests])).to.deep.equal([[null, 2], ['yes', 1]]);
  });

  it('records a header label named constructor, and filters by it', async () => {
    expect((await json<AuditEntryView>(gw, `/admin/audit/${tagged}`)).labels).to.deep.equal({ constructor: 'yes' });
    const list = await json<{ data: Array<{ id: string }> }>(gw, '/admin/audit?label=constructor:yes');
    expect(list.data.map((e) => e.id)).to.deep.equal([tagged]);
    expect((await json<{ data: unknown[] }>(gw, '/admin/audit?label=hasOwnProperty:yes')).data).to.deep.equal([]);
  });
});

// The refusal is a trigger put into the SQLite file: SQLite's store only.
(AUDIT_ON_POSTGRES ? describe.skip : describe)('admin reads while the store refuses writes @integration', function () {
  // Two gateway workers start under tsx, then a retry a second later: slow on a loaded machine.
  this.timeout(60_000);
  it('answers an entry not stored yet from the writer, 503 store_unavailable when it may be on disk only, and the stored entry once the store recovers', async () => {
    // With the metrics plugin: the audit plugin registers its series only when they are served.
    const plugins = [...withPluginOptions('audit', { max_queue: 2, flush_interval_ms: 20 }), 'metrics'];
    const log = memoryLogger('warn');
    const gw = await startTestGateway({ config: { ...DEMO_CONFIG, plugins }, logger: log.logger });
    const db = new Database(join(gw.dataDir, 'sluice.db'));
    try {
      const failedBefore = await counterValue(gw, 'sluice_audit_failed_writes_total');
      const spilledBefore = await counterValue(gw, 'sluice_audit_spilled_total');
      // A real refusal from SQLite, as a full disk gives one: every insert aborts.
      db.exec("CREATE TRIGGER refuse BEFORE INSERT ON audit_entries BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END");
      const ids = [await chat(gw, 'first'), await chat(gw, 'second'), await chat(gw, 'third')];

      const first = await json<AuditEntryView>(gw, `/admin/audit/${ids[0]}`);
      expect(first).to.deep.include({ id: ids[0], status: 200, model: 'demo/echo', input_tokens: 8, output_tokens: 1 });
      expect(first.request_body).to.deep.equal({ model: 'demo/echo', messages: [{ role: 'user', content: 'first' }] });
      // max_queue 2: the third waits in the journal only.
      await expectError(await gw.fetch(`/admin/audit/${ids[2]}`), 503, {
        message: 'the audit store is failing and some answered entries are not stored yet; try again later',
        type: 'internal_error',
        code: 'store_unavailable',
        param: null,
      });
      expect(await counterValue(gw, 'sluice_audit_failed_writes_total')).to.be.greaterThan(failedBefore);
      expect(await counterValue(gw, 'sluice_audit_spilled_total')).to.equal(spilledBefore + 1);

      db.exec('DROP TRIGGER refuse');
      // The writer retries every second; the journal is replayed once the memory queue is stored.
      const deadline = Date.now() + 10_000;
      let listed: string[] = [];
      while (Date.now() < deadline) {
        listed = (await json<{ data: Array<{ id: string }> }>(gw, '/admin/audit')).data.map((e) => e.id);
        if (listed.length === 3) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(listed).to.deep.equal([...ids].reverse());
      expect((await json<AuditEntryView>(gw, `/admin/audit/${ids[2]}`)).request_body).to.deep.equal({ model: 'demo/echo', messages: [{ role: 'user', content: 'third' }] });
      expect(db.prepare('SELECT count(*) FROM audit_entries').pluck().get()).to.equal(3);
      // The spill warning may come first: three calls can be answered within flush_interval_ms.
      expect(log.lines).to.include('error audit: writing to the store failed; entries are kept and retried every 1000 ms: disk full (test)');
    } finally {
      db.close();
      await gw.close();
    }
  });
});
