// The Redis connection a limit plugin's options ask for (none: its memory backend), connected
// before the gateway starts listening. The Redis client is loaded only then: a gateway counting
// in memory does not hold it (docs/configuration.md, "Memory").
import type { Gateway } from '../../core/plugin.js';
import { redisUrl } from './options.js';
import type { StoreOptions } from './options.js';
import type { RedisConnection } from './redis-connection.js';

export async function redisConnection(gw: Gateway, name: string, options: StoreOptions): Promise<RedisConnection | null> {
  const url = redisUrl(options);
  if (url === null) return null;
  const { RedisConnection } = await import('./redis-connection.js');
  const redis = new RedisConnection(url, name, gw.logger);
  gw.lifecycle.ready.tapPromise(name, () => redis.connect());
  return redis;
}
