import { expect } from 'chai';
import { loadConfig } from './config.js';
import { envName, resolveProviderInstances } from './provider-config.js';
import type { ProviderEnvSpec } from './provider-config.js';

const OPENAI: ProviderEnvSpec = { type: 'openai', enabledBy: 'api_key', apiKeyEnv: 'OPENAI_API_KEY', baseUrlEnv: 'OPENAI_BASE_URL', defaultBaseUrl: 'https://api.openai.com/v1' };
const VLLM: ProviderEnvSpec = { type: 'vllm', enabledBy: 'base_url' };
const AZURE: ProviderEnvSpec = { type: 'azure', enabledBy: 'api_key', apiKeyEnv: 'AZURE_OPENAI_API_KEY', baseUrlEnv: 'AZURE_OPENAI_BASE_URL', extraEnv: { api_version: 'AZURE_OPENAI_API_VERSION' } };

function instances(spec: ProviderEnvSpec, env: Record<string, string>, providers: Record<string, unknown> = {}) {
  return resolveProviderInstances(loadConfig({ overrides: { providers }, env }), spec);
}

describe('provider instances from config and environment', () => {
  it('nothing configured: no instance', () => {
    expect(instances(OPENAI, {})).to.deep.equal([]);
  });

  it('the credential in the environment enables the default instance at the public URL', () => {
    expect(instances(OPENAI, { OPENAI_API_KEY: 'sk-1' })).to.deep.equal([{ name: 'openai', type: 'openai', apiKey: 'sk-1', baseUrl: 'https://api.openai.com/v1', options: {} }]);
  });

  it('<NAME>_BASE_URL replaces the URL (trailing slashes dropped); an empty variable counts as unset', () => {
    expect(instances(OPENAI, { OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1//' })[0]!.baseUrl).to.equal('http://127.0.0.1:9/v1');
    expect(instances(OPENAI, { OPENAI_API_KEY: '' })).to.deep.equal([]);
  });

  it('a base URL alone does not enable a provider that needs a credential', () => {
    expect(instances(OPENAI, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' })).to.deep.equal([]);
  });

  it('a second instance under its own prefix takes <NAME>_API_KEY and <NAME>_BASE_URL', () => {
    const found = instances(OPENAI, { OPENAI_API_KEY: 'sk-1', OPENAI_EU_API_KEY: 'sk-eu', OPENAI_EU_BASE_URL: 'https://eu.example/v1' }, { 'openai-eu': { type: 'openai' } });
    expect(found).to.deep.equal([
      { name: 'openai', type: 'openai', apiKey: 'sk-1', baseUrl: 'https://api.openai.com/v1', options: {} },
      { name: 'openai-eu', type: 'openai', apiKey: 'sk-eu', baseUrl: 'https://eu.example/v1', options: {} },
    ]);
  });

  it('an instance from the config alone, with its own keys kept as options', () => {
    const found = instances(OPENAI, {}, { 'openai-eu': { type: 'openai', api_key: 'sk-conf', base_url: 'https://eu.example/v1', organization: 'org-1' } });
    expect(found).to.deep.equal([{ name: 'openai-eu', type: 'openai', apiKey: 'sk-conf', baseUrl: 'https://eu.example/v1', options: { organization: 'org-1' } }]);
  });

  it('the environment wins over the config for the same instance', () => {
    const found = instances(OPENAI, { OPENAI_API_KEY: 'sk-env' }, { openai: { api_key: 'sk-conf' } });
    expect(found[0]!.apiKey).to.equal('sk-env');
  });

  it('an expanded ${VAR} in the config enables an instance too', () => {
    const found = instances(OPENAI, { MY_KEY: 'sk-var' }, { openai: { api_key: '${MY_KEY}' } });
    expect(found[0]!.apiKey).to.equal('sk-var');
    expect(instances(OPENAI, {}, { openai: { api_key: '${MY_KEY}' } })).to.deep.equal([]);
  });

  it('enabled: false turns an instance off whatever the environment says', () => {
    expect(instances(OPENAI, { OPENAI_API_KEY: 'sk-1' }, { openai: { enabled: false } })).to.deep.equal([]);
    expect(instances(OPENAI, { OPENAI_EU_API_KEY: 'sk-eu' }, { 'openai-eu': { type: 'openai', enabled: false } })).to.deep.equal([]);
  });

  it('enabled: true turns an instance on without a credential', () => {
    expect(instances(OPENAI, {}, { openai: { enabled: true } })).to.deep.equal([{ name: 'openai', type: 'openai', apiKey: null, baseUrl: 'https://api.openai.com/v1', options: {} }]);
  });

  it("entries of other provider types are not this plugin's business", () => {
    expect(instances(OPENAI, {}, { 'local-vllm': { type: 'vllm', base_url: 'http://127.0.0.1:8000/v1' }, groq: { api_key: 'gsk' } })).to.deep.equal([]);
  });

  it('a self-hosted provider is enabled by its base URL, with an optional key', () => {
    expect(instances(VLLM, {})).to.deep.equal([]);
    expect(instances(VLLM, { VLLM_API_KEY: 'k' })).to.deep.equal([]);
    expect(instances(VLLM, { VLLM_BASE_URL: 'http://127.0.0.1:8000/v1' })).to.deep.equal([{ name: 'vllm', type: 'vllm', apiKey: null, baseUrl: 'http://127.0.0.1:8000/v1', options: {} }]);
    expect(instances(VLLM, { VLLM_BASE_URL: 'http://127.0.0.1:8000/v1', VLLM_API_KEY: 'k' })[0]!.apiKey).to.equal('k');
  });

  it('a self-hosted second instance: LOCAL_VLLM_BASE_URL', () => {
    const found = instances(VLLM, { LOCAL_VLLM_BASE_URL: 'http://10.0.0.2:8000/v1' }, { 'local-vllm': { type: 'vllm' } });
    expect(found).to.deep.equal([{ name: 'local-vllm', type: 'vllm', apiKey: null, baseUrl: 'http://10.0.0.2:8000/v1', options: {} }]);
  });

  it('a self-hosted instance enabled without any URL is skipped (there is nowhere to send it)', () => {
    expect(instances(VLLM, {}, { vllm: { enabled: true } })).to.deep.equal([]);
  });

  it('extra environment variables of the default instance become options', () => {
    const found = instances(AZURE, { AZURE_OPENAI_API_KEY: 'az', AZURE_OPENAI_BASE_URL: 'https://r.openai.azure.com', AZURE_OPENAI_API_VERSION: '2024-10-21' });
    expect(found).to.deep.equal([{ name: 'azure', type: 'azure', apiKey: 'az', baseUrl: 'https://r.openai.azure.com', options: { api_version: '2024-10-21' } }]);
  });

  it('envName: the prefix upper-cased, anything else as _', () => {
    expect(envName('openai-eu')).to.equal('OPENAI_EU');
    expect(envName('local.vllm')).to.equal('LOCAL_VLLM');
  });
});
