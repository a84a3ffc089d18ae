// Test-only plugin: a `log` tap, as a metrics or budget plugin would be, that records what the
// finished call came to: its final cost (the price stage ran before every log tap), usage,
// status and attempts.
import type { Attempt, CostResult } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import type { Usage } from '../../core/types/usage.js';
import { sharedRecords } from './shared-records.js';

export interface RecordedCall {
  id: string;
  status: number;
  provider: string | null;
  stream: boolean;
  cost: CostResult | null;
  usage: Usage | null;
  attempts: Attempt[];
}

export const recordedCalls = sharedRecords<RecordedCall>('call-recorder');

export default definePlugin({
  name: 'test-call-recorder',
  setup(gw) {
    gw.stages.log.tap('test-call-recorder', (ctx) => {
      recordedCalls.push({ id: ctx.id, status: ctx.status, provider: ctx.target?.provider.name ?? null, stream: ctx.stream, cost: ctx.cost, usage: ctx.usage, attempts: ctx.attempts });
    });
  },
});
