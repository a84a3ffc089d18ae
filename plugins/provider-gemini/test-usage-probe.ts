// Test-only plugin: keeps the outcome the log stage sees for each model call (status, usage,
// reassembled body) and serves them at GET /test/usage-probe (admin), so integration tests can
// check what the audit log would record without an audit plugin.
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { sendJson } from '../../core/respond.js';
import type { Usage } from '../../core/types/usage.js';

export interface ProbedCall {
  path: string;
  status: number;
  usage: Usage | null;
  responseBody: unknown;
}

export default definePlugin({
  name: 'test-usage-probe',
  setup(gw) {
    const calls: ProbedCall[] = [];
    gw.stages.log.tap('test-usage-probe', (ctx: RequestContext) => {
      calls.push({ path: ctx.path, status: ctx.status, usage: ctx.usage, responseBody: ctx.responseBody });
    });
    gw.addRoute({
      method: 'GET',
      path: '/test/usage-probe',
      access: 'admin',
      handler: async (ctx) => sendJson(ctx, 200, calls.splice(0)),
    });
  },
});
