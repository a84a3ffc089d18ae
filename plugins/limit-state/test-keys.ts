// Test-only plugin: a key store built from its options, so budget and rate-limit tests (and
// gateways they start in child processes) can call as keys carrying a budget, limits and labels.
import type { KeyBudget, KeyRateLimit, Principal } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { sha256 } from '../auth/index.js';

export interface TestKey {
  id: string;
  labels?: Record<string, string>;
  budget?: KeyBudget;
  rate_limit?: KeyRateLimit;
}

export const TEST_KEYS_FILE = new URL('./test-keys.ts', import.meta.url).pathname;

export default definePlugin<{ keys: Record<string, TestKey> }>({
  name: 'test-limit-keys',
  schema: { type: 'object', required: ['keys'], properties: { keys: { type: 'object' } } },
  setup(gw, options) {
    const principals = new Map<string, Principal>();
    for (const [secret, key] of Object.entries(options.keys)) {
      principals.set(sha256(secret).toString('hex'), {
        id: key.id,
        name: key.id,
        kind: 'key',
        admin: false,
        labels: key.labels ?? {},
        allowedModels: null,
        budget: key.budget ?? null,
        rateLimit: key.rate_limit ?? null,
      });
    }
    gw.services.keyStore = { findByHash: (hash) => principals.get(hash) ?? null };
  },
});
