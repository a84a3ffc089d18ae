// Two gateway processes on one PostgreSQL schema, as two replicas would run: a key created on one
// works on the other at once, and a key disabled or deleted on one stops working on both within
// a second (each replica follows the store's key changes).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { openAIEnv, startOpenAIMock } from '../../test/helpers/mock-openai.js';
import type { MockProvider } from '../../test/helpers/mock-provider.js';
import { closedPort, waitFor } from '../../test/helpers/net.js';
import { withPluginOptions } from '../../test/helpers/plugins.js';
import { dropSchema, scratchSchema, TEST_DATABASE_URL } from '../../test/helpers/postgres.js';
import { MASTER_KEY } from '../../test/helpers/start-gateway.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MODEL = 'openai/gpt-4o-mini';

interface Replica {
  url: string;
  child: ChildProcess;
}

describe('API keys on two gateway processes sharing PostgreSQL @integration', function () {
  this.timeout(120_000);
  let dir: string;
  let mock: MockProvider;
  const schema = scratchSchema();
  let replicas: Replica[] = [];

  async function startReplica(name: string): Promise<Replica> {
    const port = await closedPort();
    const plugins = withPluginOptions('audit', { store: { type: 'postgres', url: TEST_DATABASE_URL, schema } });
    const config = join(dir, `${name}.yaml`);
    // JSON is YAML.
    writeFileSync(config, JSON.stringify({ server: { host: '127.0.0.1' }, log: { level: 'error' }, plugins }));
    const child = spawn(process.execPath, ['--import', 'tsx', 'core/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', GATEWAY_CONFIG: config, GATEWAY_DATA_DIR: join(dir, name), GATEWAY_MASTER_KEY: MASTER_KEY, PORT: String(port), ...openAIEnv(mock) },
      stdio: 'inherit',
    });
    const replica = { url: `http://127.0.0.1:${port}`, child };
    replicas.push(replica);
    await waitFor(() => fetch(`${replica.url}/readyz`).then((r) => r.ok, () => false), 90_000, `gateway ${name} to be ready`);
    return replica;
  }

  async function adminCall(replica: Replica, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const res = await fetch(replica.url + path, { method, headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' }, ...(body !== undefined && { body: JSON.stringify(body) }) });
    const json = (await res.json()) as Record<string, unknown>;
    expect(res.status, JSON.stringify(json)).to.be.oneOf([200, 201]);
    return json;
  }

  /** The status of one chat call with `key` on `replica`, through the openai SDK. */
  async function callStatus(replica: Replica, key: string): Promise<number> {
    const client = new OpenAI({ baseURL: `${replica.url}/v1`, apiKey: key, maxRetries: 0 });
    try {
      await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
      return 200;
    } catch (err) {
      if (err instanceof OpenAI.APIError && err.status !== undefined) return err.status;
      throw err;
    }
  }

  /** ms from now until `key` is refused with `status` on `replica`. */
  async function msUntilRefused(replica: Replica, key: string, status: number): Promise<number> {
    const start = performance.now();
    await waitFor(async () => (await callStatus(replica, key)) === status, 5000, `a ${status} on ${replica.url}`);
    return performance.now() - start;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-keys-replicas-'));
    mock = await startOpenAIMock();
    // One after the other: the first applies the migrations (they take turns anyway).
    await startReplica('a');
    await startReplica('b');
  });
  after(async () => {
    await Promise.all(
      replicas.map(({ child }) => new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
        child.once('exit', resolve);
        child.kill('SIGTERM');
      })),
    );
    replicas = [];
    await mock?.close();
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a key created on one replica works on the other at once', async () => {
    const [a, b] = replicas;
    const created = await adminCall(a!, 'POST', '/admin/keys', { name: 'shared' });
    expect(await callStatus(b!, created['secret'] as string)).to.equal(200);
    expect(await callStatus(a!, created['secret'] as string)).to.equal(200);
    const listed = (await adminCall(b!, 'GET', '/admin/keys'))['data'] as Array<{ id: string }>;
    expect(listed.map((k) => k.id)).to.include(created['id']);
  });

  it('a key disabled on one replica stops on both within a second', async () => {
    const [a, b] = replicas;
    const created = await adminCall(a!, 'POST', '/admin/keys', { name: 'to disable' });
    const secret = created['secret'] as string;
    // Both know it (the directory of each has it, not just the store).
    for (const r of [a!, b!]) await waitFor(async () => (await callStatus(r, secret)) === 200, 2000, 'the key to work');
    await adminCall(a!, 'PATCH', `/admin/keys/${created['id'] as string}`, { disabled: true });
    const [onA, onB] = await Promise.all([msUntilRefused(a!, secret, 403), msUntilRefused(b!, secret, 403)]);
    console.log(`      disabled on A: refused on A after ${onA.toFixed(0)} ms, on B after ${onB.toFixed(0)} ms`);
    expect(onA).to.be.below(1000);
    expect(onB).to.be.below(1000);
  });

  it('a key deleted on one replica stops on both within a second', async () => {
    const [a, b] = replicas;
    const created = await adminCall(a!, 'POST', '/admin/keys', { name: 'to delete' });
    const secret = created['secret'] as string;
    for (const r of [a!, b!]) await waitFor(async () => (await callStatus(r, secret)) === 200, 2000, 'the key to work');
    await adminCall(b!, 'DELETE', `/admin/keys/${created['id'] as string}`);
    const [onA, onB] = await Promise.all([msUntilRefused(a!, secret, 401), msUntilRefused(b!, secret, 401)]);
    console.log(`      deleted on B: refused on A after ${onA.toFixed(0)} ms, on B after ${onB.toFixed(0)} ms`);
    expect(onA).to.be.below(1000);
    expect(onB).to.be.below(1000);
  });
});
