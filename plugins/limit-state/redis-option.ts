// The Redis connection a limit plugin's options ask for (none: its memory backend), connected
// before the gateway starts listening.
import type { Gateway } from '../../core/plugin.js';
import { redisUrl } from './options.js';
import type { StoreOptions } from './options.js';
import { RedisConnection } from './redis-connection.js';

export function redisConnection(gw: Gateway, name: string, options: StoreOptions): RedisConnection | null {
  const url = redisUrl(options);
  if (url === null) return null;
  const redis = new RedisConnection(url, name, gw.logger);
  gw.lifecycle.ready.tapPromise(name, () => redis.connect());
  return redis;
}
