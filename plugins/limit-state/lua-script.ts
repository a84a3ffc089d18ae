// A Lua script a limit plugin runs in Redis, with the SHA-1 that EVALSHA names it by. Kept apart
// from the connection so that defining a script does not load the Redis client.
import { createHash } from 'node:crypto';

export interface LuaScript {
  readonly text: string;
  readonly sha: string;
}

export function luaScript(text: string): LuaScript {
  return { text, sha: createHash('sha1').update(text).digest('hex') };
}
