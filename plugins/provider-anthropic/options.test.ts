import { expect } from 'chai';
import { StartupError } from '../../core/config-error.js';
import { anthropicOptions } from './options.js';

function failure(raw: Record<string, unknown>): unknown[] {
  try {
    anthropicOptions('gateway.yaml', 'anthropic-eu', raw);
  } catch (err) {
    if (err instanceof StartupError) return [err.code, err.message];
    throw err;
  }
  throw new Error('expected the options to be refused');
}

describe('provider-anthropic instance options', () => {
  it('fills in the defaults', () => {
    expect(anthropicOptions('gateway.yaml', 'anthropic', {})).to.deep.equal({ default_max_tokens: 4096, anthropic_version: '2023-06-01' });
    expect(anthropicOptions('gateway.yaml', 'anthropic', { default_max_tokens: 1000, anthropic_version: '2023-01-01' })).to.deep.equal({
      default_max_tokens: 1000,
      anthropic_version: '2023-01-01',
    });
  });

  it('refuses unknown keys and bad values, naming the key', () => {
    expect(failure({ default_max_token: 100 })).to.deep.equal([
      'SLUICE_ERR_CONFIG_INVALID',
      "gateway.yaml: providers.anthropic-eu: must NOT have additional properties 'default_max_token'",
    ]);
    expect(failure({ default_max_tokens: 0 })).to.deep.equal(['SLUICE_ERR_CONFIG_INVALID', 'gateway.yaml: providers.anthropic-eu.default_max_tokens: must be >= 1']);
    expect(failure({ default_max_tokens: '1000' })).to.deep.equal(['SLUICE_ERR_CONFIG_INVALID', 'gateway.yaml: providers.anthropic-eu.default_max_tokens: must be integer']);
    expect(failure({ anthropic_version: 'latest' })).to.deep.equal([
      'SLUICE_ERR_CONFIG_INVALID',
      'gateway.yaml: providers.anthropic-eu.anthropic_version: must match pattern "^\\d{4}-\\d{2}-\\d{2}$"',
    ]);
  });
});
