// The example published as its own npm package and loaded by name, as an operator would: a
// folder with the config file and a node_modules holding `sluice` (the plugin's peer
// dependency, here this repository) and `sluice-plugin-block-words`, whose code imports only
// `sluice/plugin`, the public entry point.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import OpenAI, { APIError } from 'openai';
import { stringify } from 'yaml';
import { loadConfig } from '../../core/config.js';
import { startGateway } from '../../core/gateway.js';
import type { RunningGateway } from '../../core/gateway.js';
import { createLogger } from '../../core/logger.js';
import { defaultPlugins } from '../../test/helpers/plugins.js';
import { MASTER_KEY } from '../../test/helpers/start-gateway.js';
import { CHECKED_HEADER } from './index.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = 'sluice-plugin-block-words';
const MANIFEST = { name: PACKAGE, version: '1.0.0', type: 'module', exports: './index.ts', peerDependencies: { sluice: '>=0.1.0' } };

/** An operator's folder: gateway.yaml naming the plugin by package, and its node_modules. */
function operatorFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-operator-'));
  const modules = join(dir, 'node_modules');
  const plugin = join(modules, PACKAGE);
  mkdirSync(plugin, { recursive: true });
  symlinkSync(REPO, join(modules, 'sluice'), 'dir');
  copyFileSync(fileURLToPath(new URL('./index.ts', import.meta.url)), join(plugin, 'index.ts'));
  writeFileSync(join(plugin, 'package.json'), JSON.stringify(MANIFEST));
  const config = {
    server: { host: '127.0.0.1', port: 0 },
    data_dir: join(dir, 'data'),
    master_key: MASTER_KEY,
    plugins: [...defaultPlugins(), { package: PACKAGE, options: { words: ['forbidden'] } }],
  };
  writeFileSync(join(dir, 'gateway.yaml'), stringify(config));
  return dir;
}

describe('examples/block-words, installed as a package and loaded by name @integration', () => {
  let dir: string;
  let running: RunningGateway;
  let client: OpenAI;

  before(async () => {
    dir = operatorFolder();
    running = await startGateway(loadConfig({ path: join(dir, 'gateway.yaml'), env: {} }), createLogger('error'));
    client = new OpenAI({ baseURL: `${running.url}/v1`, apiKey: MASTER_KEY, maxRetries: 0 });
  });
  after(async () => {
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets a clean chat through, marked as checked', async () => {
    const { data, response } = await client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'Hello there' }] }).withResponse();
    expect(data.choices[0]!.message.content).to.equal('Hello there');
    expect(response.headers.get(CHECKED_HEADER)).to.equal('true');
  });

  it('refuses a blocked word with the gateway error its GatewayError helper built', async () => {
    const err = await client.chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'something forbidden' }] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(APIError);
    expect((err as APIError).status).to.equal(400);
    expect((err as APIError).error).to.deep.equal({ message: 'the request contains a blocked word', type: 'invalid_request_error', code: 'blocked_word', param: 'messages[0].content' });
  });
});
