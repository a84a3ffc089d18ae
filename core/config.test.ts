import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { StartupError } from './config-error.js';
import { expand, loadConfig, mergeConfig } from './config.js';

describe('config', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-config-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes an operator file and returns its path. */
  function yamlFile(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  function startupError(fn: () => unknown): StartupError {
    try {
      fn();
    } catch (err) {
      expect(err).to.be.instanceOf(StartupError);
      return err as StartupError;
    }
    throw new Error('expected a StartupError');
  }

  describe('${VAR} expansion', () => {
    it('expands ${VAR} and ${VAR:-default} inside strings, at any depth', () => {
      const path = yamlFile('vars.yaml', [
        'data_dir: ${DATA_ROOT}/sluice',
        'master_key: ${MASTER:-sk-fallback-master-key}',
        'providers:',
        '  openai-eu:',
        '    type: openai',
        '    base_url: https://${EU_HOST:-eu.api.openai.com}/v1',
        '    api_key: ${EU_KEY}',
        'plugins: [auth, "${EXTRA_PLUGIN:-router}"]',
      ].join('\n'));
      const { config } = loadConfig({ path, env: { DATA_ROOT: '/srv', EU_KEY: 'sk-eu' } });
      expect(config.data_dir).to.equal('/srv/sluice');
      expect(config.master_key).to.equal('sk-fallback-master-key');
      expect(config.providers['openai-eu']).to.deep.equal({ type: 'openai', base_url: 'https://eu.api.openai.com/v1', api_key: 'sk-eu' });
      expect(config.plugins).to.deep.equal(['auth', 'router']);
    });

    it('an unset variable without a default is empty; an empty one takes the default', () => {
      expect(expand('a${UNSET}b', {})).to.equal('ab');
      expect(expand('${EMPTY:-x}', { EMPTY: '' })).to.equal('x');
      expect(expand('${SET:-x}', { SET: 'y' })).to.equal('y');
      expect(expand('${A}-${B:-b}-${A}', { A: '1' })).to.equal('1-b-1');
    });

    it('leaves non-strings and text without ${ alone', () => {
      expect(expand({ n: 1, b: true, z: null, l: ['$HOME', '${}'] }, { HOME: '/h' })).to.deep.equal({ n: 1, b: true, z: null, l: ['$HOME', '${}'] });
    });

    it('expands a variable into a number that validation then reads as one', () => {
      const path = yamlFile('port-var.yaml', 'server:\n  port: ${GW_PORT:-9090}\n');
      expect(loadConfig({ path, env: {} }).config.server.port).to.equal(9090);
    });
  });

  describe('layers', () => {
    it('merges the operator file over the defaults key by key, and replaces lists whole', () => {
      const path = yamlFile('merge.yaml', 'server:\n  port: 9000\nplugins: [auth]\n');
      const { config, source, baseDir } = loadConfig({ path, env: {} });
      expect(config.server.port).to.equal(9000);
      expect(config.server.host).to.equal('0.0.0.0');
      expect(config.server.body_limit_bytes).to.equal(10485760);
      expect(config.plugins).to.deep.equal(['auth']);
      expect(source).to.equal(path);
      expect(baseDir).to.equal(dir);
    });

    it('mergeConfig: mappings merge, everything else is replaced', () => {
      expect(mergeConfig({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { c: 3 }, l: [3] })).to.deep.equal({ a: { b: 1, c: 3 }, l: [3] });
      expect(mergeConfig({ a: 1 }, undefined)).to.deep.equal({ a: 1 });
      expect(mergeConfig({ a: { b: 1 } }, { a: null })).to.deep.equal({ a: null });
    });

    it('PORT, HOST, GATEWAY_DATA_DIR and GATEWAY_MASTER_KEY win over the file', () => {
      const path = yamlFile('env.yaml', 'server:\n  port: 9000\n  host: 10.0.0.1\ndata_dir: /from/file\nmaster_key: sk-from-file\n');
      const { config } = loadConfig({ path, env: { PORT: '7000', HOST: '127.0.0.1', GATEWAY_DATA_DIR: '/from/env', GATEWAY_MASTER_KEY: 'sk-from-env' } });
      expect(config.server.port).to.equal(7000);
      expect(config.server.host).to.equal('127.0.0.1');
      expect(config.data_dir).to.equal('/from/env');
      expect(config.master_key).to.equal('sk-from-env');
    });

    it('an empty override variable changes nothing; an empty master key means none', () => {
      const path = yamlFile('empty-env.yaml', 'server:\n  port: 9000\nmaster_key: ""\n');
      const { config } = loadConfig({ path, env: { PORT: '', GATEWAY_MASTER_KEY: '' } });
      expect(config.server.port).to.equal(9000);
      expect(config.master_key).to.equal(null);
    });

    it('GATEWAY_CONFIG names the file', () => {
      const path = yamlFile('named.yaml', 'log:\n  level: debug\n');
      const loaded = loadConfig({ env: { GATEWAY_CONFIG: path } });
      expect(loaded.config.log.level).to.equal('debug');
      expect(loaded.source).to.equal(path);
    });

    it('an inline config is used instead of a file', () => {
      const loaded = loadConfig({ overrides: { server: { port: 1234 } }, env: { GATEWAY_CONFIG: join(dir, 'missing.yaml') } });
      expect(loaded.config.server.port).to.equal(1234);
      expect(loaded.source).to.equal('<inline config>');
    });
  });

  describe('startup errors: one line with the file, the key and what was expected', () => {
    const cases: Array<[string, string, string]> = [
      ['a port that is not a number', 'server:\n  port: eighty\n', 'server.port: must be integer'],
      ['a port out of range', 'server:\n  port: 70000\n', 'server.port: must be <= 65535'],
      ['a body limit below the minimum', 'server:\n  body_limit_bytes: 10\n', 'server.body_limit_bytes: must be >= 1024'],
      ['an unknown log level', 'log:\n  level: verbose\n', 'log.level: must be one of "error", "warn", "info", "debug"'],
      ['an unknown key', 'server:\n  prot: 8080\n', "server: must NOT have additional properties 'prot'"],
      ['an unknown top-level key', 'sever:\n  port: 8080\n', "(top level): must NOT have additional properties 'sever'"],
      ['a plugin entry that is a list', 'plugins: [auth, [router]]\n', 'plugins[1]: must be a plugin name or an entry with one of name, path, package'],
      ['a plugin entry without name, path or package', 'plugins: [auth, {}]\n', 'plugins[1]: must have one of name, path, package'],
      ['a plugin entry with a misspelt key', 'plugins: [{nam: router}]\n', "plugins[0]: unknown key 'nam' (an entry has one of name, path, package, and optionally enabled, options)"],
      ['a plugin entry with both a name and a path', 'plugins: [{name: router, path: ./router.ts}]\n', 'plugins[0]: must have only one of name, path, package (has name, path)'],
      ['a plugin entry with a bad enabled', 'plugins: [{name: router, enabled: maybe}]\n', 'plugins[0].enabled: must be boolean'],
      ['a provider entry with a wrong type', 'providers:\n  openai:\n    enabled: "yes please"\n', 'providers.openai.enabled: must be boolean'],
    ];
    for (const [what, text, expected] of cases) {
      it(what, () => {
        const path = yamlFile('bad.yaml', text);
        const err = startupError(() => loadConfig({ path, env: {} }));
        expect(err.code).to.equal('SLUICE_ERR_CONFIG_INVALID');
        expect(err.message).to.equal(`${path}: ${expected}`);
        expect(err.message).to.not.include('\n');
      });
    }

    it('a bad PORT in the environment names the variable', () => {
      const err = startupError(() => loadConfig({ overrides: {}, env: { PORT: '80a' } }));
      expect(err.code).to.equal('SLUICE_ERR_CONFIG_INVALID');
      expect(err.message).to.equal("environment: PORT: must be an integer, got '80a'");
    });

    it('a YAML syntax error names file:line:col', () => {
      const compact = yamlFile('compact.yaml', 'a: b: c\n');
      let err = startupError(() => loadConfig({ path: compact, env: {} }));
      expect(err.code).to.equal('SLUICE_ERR_CONFIG_PARSE');
      expect(err.message).to.equal(`${compact}:1:4: Nested mappings are not allowed in compact mappings`);
      const unclosed = yamlFile('unclosed.yaml', 'server:\n  port: 8080\n  host: [127.0.0.1\nlog:\n  level: info\n');
      err = startupError(() => loadConfig({ path: unclosed, env: {} }));
      expect(err.message).to.equal(`${unclosed}:4:1: Flow sequence in block collection must be sufficiently indented and end with a ]`);
    });

    it('a file that is not a mapping', () => {
      const path = yamlFile('list.yaml', '- a\n- b\n');
      const err = startupError(() => loadConfig({ path, env: {} }));
      expect(err.code).to.equal('SLUICE_ERR_CONFIG_INVALID');
      expect(err.message).to.equal(`${path}: (top level): must be a mapping of keys`);
    });

    it('GATEWAY_CONFIG pointing at a missing file is SLUICE_ERR_CONFIG_NOT_FOUND', () => {
      const missing = join(dir, 'nowhere.yaml');
      const err = startupError(() => loadConfig({ env: { GATEWAY_CONFIG: missing } }));
      expect(err.code).to.equal('SLUICE_ERR_CONFIG_NOT_FOUND');
      expect(err.message).to.equal(`${missing}: config file not found (GATEWAY_CONFIG)`);
      expect(err.toString()).to.equal(`SLUICE_ERR_CONFIG_NOT_FOUND ${missing}: config file not found (GATEWAY_CONFIG)`);
    });

    it('an empty GATEWAY_CONFIG is unset: the defaults, not the working directory read as a file', () => {
      const loaded = loadConfig({ env: { GATEWAY_CONFIG: '' } });
      expect(loaded.config.server.port).to.equal(8080);
    });

    it('a config path that is a directory is SLUICE_ERR_CONFIG_UNREADABLE, in one line', () => {
      const err = startupError(() => loadConfig({ env: { GATEWAY_CONFIG: dir } }));
      expect(err.code).to.equal('SLUICE_ERR_CONFIG_UNREADABLE');
      expect(err.toString()).to.equal(`SLUICE_ERR_CONFIG_UNREADABLE ${dir}: cannot read the config file (EISDIR)`);
    });

    it('an empty file is a valid config (all defaults)', () => {
      const path = yamlFile('empty.yaml', '# nothing yet\n');
      expect(loadConfig({ path, env: {} }).config.server.port).to.equal(8080);
    });
  });
});
