// Test-only plugin: a key store with two fixed keys, so tests can call as a key that is not
// the master key: one limited to a single model, one carrying a label.
import type { Principal } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { sha256 } from '../auth/index.js';

export const LIMITED_KEY = 'sk-test-limited-key-0001';
export const TEAM_KEY = 'sk-test-team-key-0002';

const PRINCIPALS = new Map<string, Principal>([
  [sha256(LIMITED_KEY).toString('hex'), { id: 'key-limited', name: 'limited', kind: 'key', admin: false, labels: {}, allowedModels: ['openai/gpt-4o-mini'] }],
  [sha256(TEAM_KEY).toString('hex'), { id: 'key-team', name: 'team', kind: 'key', admin: false, labels: { team: 'platform' }, allowedModels: ['openai/*'] }],
]);

export default definePlugin({
  name: 'test-passthrough-keys',
  setup(gw) {
    gw.services.keyStore = { findByHash: (hash) => PRINCIPALS.get(hash) ?? null };
  },
});
