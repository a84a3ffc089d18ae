import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { StartupError } from './config-error.js';
import type { StartupErrorCode } from './config-error.js';
import { loadConfig } from './config.js';
import type { PluginEntry } from './config.js';
import { loadPlugins } from './plugin-loader.js';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/plugins/', import.meta.url));
const fixture = (name: string): string => join(FIXTURES, name);

function load(plugins: Array<string | PluginEntry>) {
  return loadPlugins(loadConfig({ overrides: { plugins }, env: {} }));
}

async function rejection(plugins: Array<string | PluginEntry>, code: StartupErrorCode): Promise<string> {
  const err = await load(plugins).then(() => null, (e: unknown) => e);
  expect(err).to.be.instanceOf(StartupError);
  expect((err as StartupError).code).to.equal(code);
  expect((err as StartupError).message).to.not.include('\n');
  return (err as StartupError).message;
}

describe('plugin loader', () => {
  it('loads built-ins by name, in list order, skipping disabled entries', async () => {
    const loaded = await load(['auth', { name: 'validate', enabled: false }, 'router', 'provider-demo']);
    expect(loaded.map((p) => p.definition.name)).to.deep.equal(['auth', 'router', 'provider-demo']);
    expect(loaded.map((p) => p.where)).to.deep.equal(['plugins[0] (auth)', 'plugins[2] (router)', 'plugins[3] (provider-demo)']);
  });

  it('applies the defaults of the options schema', async () => {
    const [plugin] = await load([{ path: fixture('with-schema.ts'), options: { limits: { size: 3 } } }]);
    expect(plugin!.options).to.deep.equal({ limits: { size: 3 }, label: 'none' });
  });

  it('reads a number written through ${VAR} as a number, as core keys do', async () => {
    const loaded = await loadPlugins(loadConfig({ overrides: { plugins: [{ path: fixture('with-schema.ts'), options: { limits: { size: '${SIZE:-4}' } } }] }, env: {} }));
    expect(loaded[0]!.options).to.deep.equal({ limits: { size: 4 }, label: 'none' });
  });

  it('an unknown built-in name', async () => {
    expect(await rejection(['auth', 'no-such-plugin'], 'SLUICE_ERR_PLUGIN_NOT_FOUND')).to.equal("<inline config>: plugins[1] (no-such-plugin): no built-in plugin named 'no-such-plugin'");
  });

  it('a name that could escape the plugins folder', async () => {
    expect(await rejection([{ name: '../core' }], 'SLUICE_ERR_CONFIG_INVALID')).to.equal(
      "<inline config>: plugins[0] (../core).name: must be a built-in plugin name (lower-case letters, digits, '-')",
    );
  });

  it('a path that does not exist', async () => {
    const missing = fixture('missing-plugin.ts');
    expect(await rejection([{ path: missing }], 'SLUICE_ERR_PLUGIN_NOT_FOUND')).to.equal(`<inline config>: plugins[0] (${missing}).path: no file at ${missing}`);
  });

  it('a relative path is resolved from the config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-plugins-'));
    try {
      const path = join(dir, 'gateway.yaml');
      writeFileSync(path, `plugins:\n  - auth\n  - path: ${relative(dir, fixture('needs-auth.ts'))}\n`);
      const loaded = await loadPlugins(loadConfig({ path, env: {} }));
      expect(loaded.map((p) => p.definition.name)).to.deep.equal(['auth', 'needs-auth']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a package that cannot be found', async () => {
    const message = await rejection([{ package: 'sluice-plugin-that-does-not-exist' }], 'SLUICE_ERR_PLUGIN_NOT_FOUND');
    expect(message).to.match(/^<inline config>: plugins\[0\] \(sluice-plugin-that-does-not-exist\): cannot load sluice-plugin-that-does-not-exist: /);
  });

  it('a module without a default plugin', async () => {
    const path = fixture('no-default.ts');
    expect(await rejection([{ path }], 'SLUICE_ERR_PLUGIN_INVALID')).to.equal(
      `<inline config>: plugins[0] (${path}): the module's default export must be a plugin (definePlugin({ name, setup }))`,
    );
  });

  it('options against the plugin schema: the line names plugins[i] (name).options.key', async () => {
    const path = fixture('with-schema.ts');
    const where = `<inline config>: plugins[1] (${path})`;
    expect(await rejection(['auth', { path, options: { limits: { size: 0 } } }], 'SLUICE_ERR_CONFIG_INVALID')).to.equal(`${where}.options.limits.size: must be >= 1`);
    expect(await rejection(['auth', { path, options: { limits: { size: 'big' } } }], 'SLUICE_ERR_CONFIG_INVALID')).to.equal(`${where}.options.limits.size: must be integer`);
    expect(await rejection(['auth', { path, options: { limits: { size: 1 }, colour: 'red' } }], 'SLUICE_ERR_CONFIG_INVALID')).to.equal(`${where}.options: must NOT have additional properties 'colour'`);
    expect(await rejection(['auth', { path }], 'SLUICE_ERR_CONFIG_INVALID')).to.equal(`${where}.options: must have required property 'limits'`);
  });

  it("a built-in's options, with the path into them", async () => {
    expect(await rejection([{ name: 'router', options: { discovery: { retry_interval_s: 0 } } }], 'SLUICE_ERR_CONFIG_INVALID')).to.equal(
      '<inline config>: plugins[0] (router).options.discovery.retry_interval_s: must be >= 1',
    );
  });

  it('options given to a plugin that takes none', async () => {
    expect(await rejection([{ name: 'auth', options: { strict: true } }], 'SLUICE_ERR_CONFIG_INVALID')).to.equal("<inline config>: plugins[0] (auth).options: plugin 'auth' takes no options");
  });

  it('a plugin listed twice', async () => {
    expect(await rejection(['auth', 'validate', 'auth'], 'SLUICE_ERR_CONFIG_INVALID')).to.equal("<inline config>: plugins[2] (auth): plugin 'auth' is listed twice");
  });

  it('a missing dependency', async () => {
    const path = fixture('needs-auth.ts');
    expect(await rejection(['validate', { path }], 'SLUICE_ERR_PLUGIN_DEPENDENCY')).to.equal(`<inline config>: plugins[1] (${path}): needs plugin 'auth', which is not enabled`);
  });

  it('a dependency that is disabled counts as missing', async () => {
    const path = fixture('needs-auth.ts');
    expect(await rejection([{ name: 'auth', enabled: false }, { path }], 'SLUICE_ERR_PLUGIN_DEPENDENCY')).to.equal(`<inline config>: plugins[1] (${path}): needs plugin 'auth', which is not enabled`);
  });

  it('orders a plugin after what it depends on, keeping list order otherwise', async () => {
    const loaded = await load(['validate', { path: fixture('needs-auth.ts') }, 'router', 'auth']);
    expect(loaded.map((p) => p.definition.name)).to.deep.equal(['validate', 'auth', 'needs-auth', 'router']);
  });
});
