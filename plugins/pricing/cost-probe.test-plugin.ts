// Test-only plugin, loaded by path from integration tests: it records the cost the price stage
// put on every finished call, by request id, so a test can read the exact figure and its lines
// for the call it made over HTTP (the x-request-id header names it).
import { fileURLToPath } from 'node:url';
import type { CostResult } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';

// Kept on globalThis: mocha loads test files through tsx's CommonJS path while the gateway
// imports plugins as ES modules, so this file runs twice and a module-level map would be two.
const STORE = Symbol.for('sluice.test.cost-probe');
const holder = globalThis as { [STORE]?: Map<string, CostResult | null> };
export const observedCosts: Map<string, CostResult | null> = (holder[STORE] ??= new Map());

/** The plugin list entry that loads this probe. */
export const COST_PROBE_ENTRY = { path: fileURLToPath(import.meta.url) };

export default definePlugin({
  name: 'cost-probe',
  setup(gw) {
    gw.stages.log.tap('cost-probe', (ctx) => {
      observedCosts.set(ctx.id, ctx.cost);
    });
  },
});
