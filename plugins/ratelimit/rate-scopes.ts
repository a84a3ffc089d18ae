// The limits a request counts against: its key's own, and those configured for each value of a label it carries.
import type { RequestContext } from '../../core/context.js';
import { labelValues } from '../limit-state/label-values.js';
import type { RateScope } from './limiter.js';
import type { LimitValues } from './schema.js';

export function rateScopes(ctx: RequestContext, labelLimits: ReadonlyArray<readonly [string, LimitValues]>): RateScope[] {
  const scopes: RateScope[] = [];
  const principal = ctx.principal;
  if (principal?.rateLimit) addScope(scopes, `key:${principal.id}`, principal.rateLimit);
  for (const [name, limits] of labelLimits) {
    for (const value of labelValues(ctx.labels, name)) addScope(scopes, `label:${name}:${value}`, limits);
  }
  return scopes;
}

function addScope(scopes: RateScope[], id: string, limits: LimitValues): void {
  const scope = { id, rpm: limits.rpm ?? 0, tpm: limits.tpm ?? 0, concurrent: limits.concurrent ?? 0 };
  if (scope.rpm > 0 || scope.tpm > 0 || scope.concurrent > 0) scopes.push(scope);
}
