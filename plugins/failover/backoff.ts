// How long to wait before trying a target again: the provider's retry-after when it gave one
// (null past the cap: the caller moves on instead), else exponential backoff with full jitter
// so that many gateways retrying together do not hit the provider in step.
import type { GatewayError } from '../../core/errors.js';
import type { FailoverOptions } from './schema.js';

export function retryDelayMs(err: GatewayError, retry: number, options: FailoverOptions['retry'], random: () => number = Math.random): number | null {
  if (err.retryAfter !== null) {
    const asked = err.retryAfter * 1000;
    return asked <= options.retry_after_cap_ms ? asked : null;
  }
  const ceiling = Math.min(options.backoff_max_ms, options.backoff_base_ms * 2 ** retry);
  return Math.floor(random() * ceiling);
}
