import { expect } from 'chai';
import type { ProviderInstanceConfig } from '../../core/provider-config.js';
import { instanceOptionsCheck } from './instance-options.js';
import { OPENROUTER_OPTIONS } from './openrouter-headers.js';

function instance(options: Record<string, unknown>): ProviderInstanceConfig {
  return { name: 'openrouter-team', type: 'openrouter', apiKey: 'k', baseUrl: 'https://openrouter.ai/api/v1', options };
}

function failure(check: () => void): { code: string; message: string } {
  try {
    check();
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('expected a startup error');
}

describe('provider-openai-compatible: instance options', () => {
  const check = instanceOptionsCheck(OPENROUTER_OPTIONS);

  it('accepts the keys the provider knows', () => {
    check('gateway.yaml', instance({ http_referer: 'https://app.example', app_title: 'Acme' }));
    check('gateway.yaml', instance({}));
  });

  it('stops the boot on an unknown key, naming it', () => {
    const err = failure(() => check('gateway.yaml', instance({ http_referrer: 'https://app.example' })));
    expect(err.code).to.equal('SLUICE_ERR_CONFIG_INVALID');
    expect(err.message).to.equal("gateway.yaml: providers.openrouter-team.http_referrer: unknown key for a provider of type 'openrouter'");
  });

  it('stops the boot on a value of the wrong type, naming its path', () => {
    const err = failure(() => check('gateway.yaml', instance({ app_title: 42 })));
    expect(err.message).to.equal('gateway.yaml: providers.openrouter-team.app_title: must be string');
  });

  it('accepts no key at all for rows that take none', () => {
    const none = instanceOptionsCheck({});
    none('gateway.yaml', instance({}));
    expect(failure(() => none('gateway.yaml', instance({ deployments: {} }))).message).to.contain('providers.openrouter-team.deployments: unknown key');
  });
});
