// Test-only plugin: one span per request, as a tracing plugin would keep. It starts when the
// server took the request (ctx.startMono, before the auth stage), gets a trace id in the first
// auth tap, marks each stage the request passes, and ends in the last log tap: after the
// response was written and every other log tap ran.
import type { RequestContext } from '../../core/context.js';
import { definePlugin } from '../../core/plugin.js';
import { randomHex } from '../../core/random-pool.js';
import { ORDER } from '../../core/stages.js';
import { sharedRecords } from './shared-records.js';

declare module '../../core/context.js' {
  interface ContextLocals {
    testSpan?: string[];
  }
}

export interface RecordedSpan {
  traceId: string | null;
  start: number;
  end: number;
  stages: string[];
  status: number;
  /** The response's head had been written when the span ended. */
  answered: boolean;
  /** The whole response had been handed to the socket when the span ended. */
  responseEnded: boolean;
  durationMs: number | null;
}

export const recordedSpans = sharedRecords<RecordedSpan>('request-span');

const NAME = 'test-request-span';
const FIRST = { name: NAME, stage: ORDER.FIRST };

function mark(ctx: RequestContext, stage: string): void {
  (ctx.locals.testSpan ??= []).push(stage);
}

export default definePlugin({
  name: NAME,
  setup(gw) {
    gw.stages.auth.tap(FIRST, (ctx) => {
      ctx.traceId = randomHex(16);
      mark(ctx, 'auth');
    });
    gw.stages.tag.tap(FIRST, (ctx) => mark(ctx, 'tag'));
    gw.stages.route.tap(FIRST, (ctx) => mark(ctx, 'route'));
    gw.stages.limit.tap(FIRST, (ctx) => mark(ctx, 'limit'));
    gw.stages.cache.tap(FIRST, (ctx) => void mark(ctx, 'cache'));
    gw.stages.forward.tap(FIRST, (ctx) => void mark(ctx, 'forward'));
    gw.stages.price.tap(FIRST, (ctx) => mark(ctx, 'price'));
    gw.stages.log.tap(FIRST, (ctx) => mark(ctx, 'log'));
    gw.stages.log.tap({ name: NAME, stage: ORDER.LAST }, (ctx) => {
      recordedSpans.push({
        traceId: ctx.traceId,
        start: ctx.startMono,
        end: performance.now(),
        stages: ctx.locals.testSpan ?? [],
        status: ctx.status,
        answered: ctx.res.headersSent,
        responseEnded: ctx.res.writableEnded,
        durationMs: ctx.durationMs,
      });
    });
  },
});
