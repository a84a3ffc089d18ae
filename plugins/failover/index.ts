// Failover in the `forward` stage: tries a virtual model's targets in its strategy's order
// (any other model: its one target), each with retries and backoff on retryable errors, and
// skips targets whose circuit breaker is open. gw.invoke settles before a stream's first byte
// reaches the client, so every failure caught here left the client untouched; a stream that
// fails later is ended by the relay with the error event.
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestContext } from '../../core/context.js';
import { GatewayError, isGatewayError, providerFailed } from '../../core/errors.js';
import { definePlugin } from '../../core/plugin.js';
import type { Reply } from '../../core/reply.js';
import type { Target } from '../../core/provider.js';
import { retryDelayMs } from './backoff.js';
import { CircuitBreaker } from './breaker.js';
import { trackBreakers } from './breaker-metrics.js';
import { LatencyTable } from './latency.js';
import { failoverSchema, type FailoverOptions } from './schema.js';
import { orderTargets } from './strategies.js';

const NAME = 'failover';

export default definePlugin<FailoverOptions>({
  name: NAME,
  dependsOn: ['router'],
  schema: failoverSchema,
  setup(gw, options) {
    const breaker = new CircuitBreaker(options.breaker);
    const latency = new LatencyTable();
    let untrack = (): void => {};
    // Every provider instance is known once all plugins are set up: each gets a series from the start.
    gw.lifecycle.ready.tap(NAME, () => {
      const providers = [...gw.providers].map((p) => p.name);
      untrack = trackBreakers({ providers, openByProvider: () => breaker.openByProvider() });
    });
    gw.lifecycle.close.tap(NAME, () => untrack());
    gw.services.breakers = { states: () => breaker.states() };

    /**
     * One target with its retries; null when it failed retryably (the next target may answer).
     * `timed`: a virtual model's target, whose answer time the lowest_latency strategy reads
     * (a direct call's model id is the client's: any number of them could be sent).
     */
    const tryTarget = async (ctx: RequestContext, target: Target, failures: GatewayError[], timed: boolean): Promise<Reply | null> => {
      for (let retry = 0; ; retry++) {
        const started = performance.now();
        try {
          const reply = await gw.invoke(ctx, target);
          breaker.succeeded(target.id);
          if (timed) latency.record(target.id, performance.now() - started);
          return reply;
        } catch (err) {
          if (ctx.abort.aborted) {
            breaker.released(target.id);
            throw err;
          }
          // A refusal of the request itself (a 400) says the provider is up: not a failure of it.
          if (!isGatewayError(err) || !err.retryable) {
            breaker.succeeded(target.id);
            throw err;
          }
          breaker.failed(target.id, target.provider.name);
          failures.push(err);
          const delay = retry < options.retry.max_retries ? retryDelayMs(err, retry, options.retry) : null;
          if (delay === null) return null;
          // Cancelled while waiting: the call ends for the cancellation's reason (the client left,
          // or the gateway's shutdown deadline came, which the client is told), not sleep's AbortError.
          await sleep(delay, undefined, { signal: ctx.abort.signal }).catch(() => {
            throw ctx.abort.reason;
          });
          if (!breaker.admit(target.id)) return null;
        }
      }
    };

    gw.stages.forward.tapPromise(NAME, async (ctx) => {
      const routed = ctx.target!;
      // dependsOn router: it set the models service up.
      const plan = gw.services.models!.plan(routed.id);
      const operation = ctx.route.operation!;
      // A target whose provider cannot do the operation (embeddings on Anthropic) is passed over,
      // not failed: its provider is fine. With none left, the core answers the routed one's 501.
      const able = plan === null ? [] : plan.targets.filter((t) => gw.providers.handler(t.target.provider, operation) !== undefined);
      if (plan !== null && able.length === 0) return undefined;
      const targets = plan === null ? [routed] : orderTargets(plan.strategy, able, latency);
      const failures: GatewayError[] = [];
      for (const target of targets) {
        if (!breaker.admit(target.id)) continue;
        const reply = await tryTarget(ctx, target, failures, plan !== null);
        if (reply !== null) return reply;
      }
      const last = failures.at(-1);
      if (last === undefined) throw allTargetsOut(routed.id, breaker.waitMs(targets.map((t) => t.id)));
      throw targets.length > 1 ? everyTargetFailed(routed.id, last) : last;
    });
  },
});

/** Every target failed: 502 naming the last provider, 504 when its last failure was a timeout. */
function everyTargetFailed(id: string, last: GatewayError): GatewayError {
  const status = last.status === 504 ? 504 : 502;
  return providerFailed(last.provider ?? 'unknown', `every target of '${id}' failed; the last said: ${last.message}`, last, status, last.code);
}

/** Every target's breaker is open: nothing was called. */
function allTargetsOut(id: string, waitMs: number): GatewayError {
  return new GatewayError({
    status: 503,
    type: 'provider_error',
    message: `every target of '${id}' is out after repeated failures; try again later`,
    code: 'circuit_open',
    retryable: true,
    retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
  });
}
