// API keys: created and changed through /admin/keys, kept (as hashes of their secrets) in the
// store the audit plugin opened, and looked up by the auth plugin through `keyStore`. A key
// carries labels (they join the request's header labels), a budget and rate limits (for the
// limit-stage plugins, on the principal), allowed models, an expiry and admin access.
//   key-directory.ts  every key in memory by its secret's hash, following the store's changes
//   key-input.ts      the admin API's bodies, checked member by member
//   routes.ts         the admin endpoints; key-view.ts and spend.ts what they answer
import { definePlugin } from '../../core/plugin.js';
import { KeyDirectory } from './key-directory.js';
import { registerKeyRoutes } from './routes.js';

export type { KeySpend, KeySpendService } from './spend.js';
export { periodStart } from './spend.js';
export type { BudgetedKey } from './key-directory.js';

declare module '../../core/plugin.js' {
  interface GatewayServices {
    /** Keys whose budget is new to this replica (set, or on another period): a budget plugin seeds their spend. */
    keyBudgets: Pick<KeyDirectory, 'onNewBudgets'>;
  }
}

const NAME = 'keys';

interface KeysOptions {
  /** How often each replica reads the store's key changes. */
  refresh_ms: number;
}

export default definePlugin<KeysOptions>({
  name: NAME,
  dependsOn: ['auth', 'audit'],
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      // At most a second: a revoked key must stop working on every replica within one.
      refresh_ms: { type: 'integer', minimum: 50, maximum: 1000, default: 250 },
    },
  },
  setup(gw, options) {
    const store = gw.services.store;
    if (store === undefined) throw new Error('the keys plugin needs the store the audit plugin opens');
    const directory = new KeyDirectory(store.keys, options.refresh_ms, gw.logger);
    gw.services.keyStore = directory;
    gw.services.keyBudgets = directory;
    registerKeyRoutes(gw, store.keys, directory);
    // Before the audit plugin closes the store (close taps run in plugin order otherwise).
    gw.lifecycle.close.tapPromise({ name: NAME, stage: -10 }, () => directory.stop());
  },
});
