// What a SIGKILL costs the audit log: a gateway child process under load is killed, restarted
// on its data directory, and every answered call is looked for. The writer's worker journals an
// entry as it arrives, so only calls answered in the last moments before the kill (entries not
// yet handed to the worker) may be missing.
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { closedPort, waitFor } from '../../../test/helpers/net.js';
import { MASTER_KEY, startTestGateway } from '../../../test/helpers/start-gateway.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENTS = 16;
const LOAD_MS = 2000;

describe('audit entries across a SIGKILL @integration', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-sigkill-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('loses only calls answered in the last milliseconds before the kill', async () => {
    const dataDir = join(dir, 'data');
    const config = join(dir, 'gateway.yaml');
    const port = await closedPort();
    writeFileSync(config, `server:\n  host: 127.0.0.1\nproviders:\n  demo:\n    stream_delay_ms: 0\nlog:\n  level: error\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', 'core/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: dataDir, GATEWAY_MASTER_KEY: MASTER_KEY, PORT: String(port) },
      stdio: 'inherit',
    });
    const url = `http://127.0.0.1:${port}`;
    const agent = new Agent({ connections: CLIENTS });
    try {
      const ready = (): Promise<boolean> => request(`${url}/readyz`, { dispatcher: agent }).then((r) => r.body.text().then(() => r.statusCode === 200), () => false);
      await waitFor(ready, 60_000, 'the gateway child to be ready');

      // Each answered call: its id and when its answer arrived.
      const answered: Array<{ id: string; at: number }> = [];
      let killedAt = Infinity;
      const body = JSON.stringify({ model: 'demo/echo', messages: [{ role: 'user', content: 'count me' }] });
      const client = async (): Promise<void> => {
        while (killedAt === Infinity) {
          try {
            const res = await request(`${url}/v1/chat/completions`, { method: 'POST', body, dispatcher: agent, headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' } });
            await res.body.text();
            if (res.statusCode === 200) answered.push({ id: String(res.headers['x-request-id']), at: performance.now() });
          } catch {
            return;
          }
        }
      };
      const clients = Array.from({ length: CLIENTS }, client);
      await sleep(LOAD_MS);
      killedAt = performance.now();
      child.kill('SIGKILL');
      await Promise.all(clients);
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

      // A restart replays the journal; an admin read waits until it is stored.
      const gw = await startTestGateway({ dataDir });
      expect((await gw.fetch('/admin/audit?limit=1')).status).to.equal(200);
      await gw.close();
      const db = new Database(join(dataDir, 'sluice.db'), { readonly: true });
      const stored = new Set(db.prepare('SELECT id FROM audit_entries').pluck().all() as string[]);
      db.close();

      const lost = answered.filter((a) => !stored.has(a.id));
      const ages = lost.map((a) => killedAt - a.at);
      console.log(`      answered ${answered.length}, lost ${lost.length}${lost.length > 0 ? `, answered ${Math.min(...ages).toFixed(1)}-${Math.max(...ages).toFixed(1)} ms before the kill` : ''}`);
      expect(answered.length).to.be.greaterThan(100);
      // The design bound is a few milliseconds (3 of 140 lost, all within 2 ms, on this machine
      // at a load average of ~14); the margin is for a machine so loaded that the worker thread
      // itself waits for a CPU (up to 216 ms seen at a load average of 18 on 2 cores).
      for (const age of ages) expect(age).to.be.below(250);
    } finally {
      child.kill('SIGKILL');
      await agent.close();
    }
  });
});
