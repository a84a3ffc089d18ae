// Test-only plugin, loaded by path from integration tests: it records the provider-neutral usage
// of every finished call, which clients never see (they get the provider's own bytes), so tests
// can assert what a provider's usage fields mapped to.
import { fileURLToPath } from 'node:url';
import { definePlugin } from '../../core/plugin.js';
import type { Usage } from '../../core/types/usage.js';

export interface ObservedCall {
  provider: string | null;
  usage: Usage | null;
}

// Kept on globalThis: mocha loads test files through tsx's CommonJS path while the gateway
// imports plugins as ES modules, so this file runs twice and a module-level array would be two.
const STORE = Symbol.for('sluice.test.usage-probe');
const holder = globalThis as { [STORE]?: ObservedCall[] };
export const observedCalls: ObservedCall[] = (holder[STORE] ??= []);

/** The plugin list entry that loads this probe. */
export const USAGE_PROBE_ENTRY = { path: fileURLToPath(import.meta.url) };

export default definePlugin({
  name: 'usage-probe',
  setup(gw) {
    gw.stages.log.tap('usage-probe', (ctx) => {
      observedCalls.push({ provider: ctx.target?.provider.name ?? null, usage: ctx.usage });
    });
  },
});
