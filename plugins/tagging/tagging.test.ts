import { expect } from 'chai';
import { StartupError } from '../../core/config-error.js';
import { decodeValue, readLabels } from './labels.js';
import { buildRules, rulesFromEnv } from './rules.js';

describe('tagging rules', () => {
  it('reads TAGGING_HEADER_<n> with its PREFIX, DELIMITER and DONOTPASS, in order', () => {
    const env = {
      TAGGING_HEADER_2: 'X-OpenWebUI-User-Email',
      TAGGING_HEADER_2_DONOTPASS: 'true',
      TAGGING_HEADER_1: 'X-OpenWebUI-User-Id',
      TAGGING_HEADER_1_PREFIX: 'user',
      TAGGING_HEADER_3: 'X-Tags',
      TAGGING_HEADER_3_DELIMITER: ',',
      TAGGING_HEADER_3_DONOTPASS: 'false',
    };
    expect(buildRules([], rulesFromEnv(env), 'cfg')).to.deep.equal([
      { header: 'x-openwebui-user-id', label: 'user', doNotPass: false, delimiter: null },
      { header: 'x-openwebui-user-email', label: 'x-openwebui-user-email', doNotPass: true, delimiter: null },
      { header: 'x-tags', label: 'x-tags', doNotPass: false, delimiter: ',' },
    ]);
  });

  it('lets the environment win over the config for the same header', () => {
    const rules = buildRules([{ header: 'X-Team', label: 'team' }], [{ header: 'x-team', label: 'squad', donotpass: true }], 'cfg');
    expect(rules).to.deep.equal([{ header: 'x-team', label: 'squad', doNotPass: true, delimiter: null }]);
  });

  for (const header of ['Authorization', 'cookie', 'X-Api-Key', 'api-key', 'Proxy-Authorization', 'x-goog-api-key']) {
    it(`refuses the credential header ${header} as a label source`, () => {
      expect(() => buildRules([], [{ header }], 'cfg')).to.throw(StartupError, /credential headers cannot be label sources/);
    });
  }

  it('refuses a header name with spaces', () => {
    expect(() => buildRules([{ header: 'X Team' }], [], 'config/gateway.yaml')).to.throw(/config\/gateway.yaml: tagging header 'X Team': not a valid HTTP header name/);
  });
});

describe('reading labels', () => {
  const rules = buildRules([{ header: 'X-OpenWebUI-User-Name', label: 'user' }, { header: 'X-Tags', label: 'tags', delimiter: ',' }, { header: 'X-Team', label: 'team' }], [], 'cfg');

  it('decodes percent-encoded values and records nothing for absent or empty headers', () => {
    const labels: Record<string, string | string[]> = {};
    readLabels(rules, { 'x-openwebui-user-name': 'J%C3%BCrgen%20M', 'x-team': '' }, undefined, labels);
    expect(labels).to.deep.equal({ user: 'Jürgen M' });
  });

  it('splits a delimited header into distinct values', () => {
    const labels: Record<string, string | string[]> = {};
    readLabels(rules, { 'x-tags': 'ml, prod,ml,,eval' }, undefined, labels);
    expect(labels).to.deep.equal({ tags: ['ml', 'prod', 'eval'] });
  });

  it("keeps the key's labels over a client header of the same name", () => {
    const labels: Record<string, string | string[]> = {};
    readLabels(rules, { 'x-team': 'spoofed', 'x-openwebui-user-name': 'ann' }, { team: 'platform', cost_center: 'cc-7' }, labels);
    expect(labels).to.deep.equal({ user: 'ann', team: 'platform', cost_center: 'cc-7' });
  });

  it('keeps malformed percent-encoding as sent and cuts long values', () => {
    expect(decodeValue('100%')).to.equal('100%');
    expect(decodeValue('x'.repeat(300))).to.have.length(256);
  });
});
