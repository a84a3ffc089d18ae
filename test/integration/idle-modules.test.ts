// What the gateway process holds while nobody calls it (issue 20): a feature's big dependencies
// are loaded when the feature is first used, not at boot. The default plugin list runs as a child
// process against a mock OpenAI (so one upstream call, the model discovery, has been made), and
// a probe preloaded into it lists the packages its request thread has loaded.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockProvider } from '../helpers/mock-provider.js';
import { openAIEnv, startOpenAIMock } from '../helpers/mock-openai.js';
import { closedPort, waitFor } from '../helpers/net.js';
import { packagesOf } from '../helpers/packages.js';
import { MASTER_KEY } from '../helpers/start-gateway.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROBE = fileURLToPath(new URL('../helpers/loaded-modules-probe.ts', import.meta.url));

/**
 * Loaded at their feature's first use: metrics (prom-client and what it requires), passthrough, the
 * stores' drivers (in worker threads only), the Redis client (only for a limit or cache plugin with Redis).
 */
const NOT_AT_IDLE = ['@keyv/redis', '@opentelemetry/api', '@redis/client', 'better-sqlite3', 'follow-redirects', 'http-proxy-3', 'pg', 'prom-client'];

function loadedFiles(child: ChildProcess): Promise<string[]> {
  return new Promise((resolve) => {
    child.once('message', (files) => resolve(files as string[]));
    child.send('list');
  });
}

describe('the modules an idle gateway holds @integration', function () {
  this.timeout(90_000);
  let dir: string;
  let mock: MockProvider;
  let child: ChildProcess | null = null;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-idle-'));
    mock = await startOpenAIMock();
  });
  after(async () => {
    child?.kill('SIGKILL');
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("with the default plugins and one upstream call, holds undici's Pool but not its index, and none of the packages features load at first use", async () => {
    const port = await closedPort();
    // No GATEWAY_CONFIG: config/gateway.yaml, which keeps the default plugin list, as `npm start` runs.
    child = spawn(process.execPath, ['--import', 'tsx', '--import', PROBE, 'core/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', GATEWAY_DATA_DIR: join(dir, 'data'), GATEWAY_MASTER_KEY: MASTER_KEY, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error', ...openAIEnv(mock) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const url = `http://127.0.0.1:${port}`;
    await waitFor(() => fetch(`${url}/readyz`).then((r) => r.ok, () => false), 60_000, 'the gateway child to be ready');
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${MASTER_KEY}` } });
    expect(models.status).to.equal(200);
    expect(mock.requests.filter((r) => r.url === '/v1/models')).to.have.length(1);

    const files = await loadedFiles(child);
    const undici = files.filter((f) => f.includes('/node_modules/undici/')).map((f) => f.slice(f.indexOf('/node_modules/undici/') + 21));
    expect(undici).to.include('lib/dispatcher/pool.js');
    expect(undici).to.not.include('index.js');
    expect(packagesOf(files).filter((p) => NOT_AT_IDLE.includes(p))).to.deep.equal([]);
  });
});
