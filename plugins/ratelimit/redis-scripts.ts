// The Lua scripts of the Redis rate limiter: admission is one script (one round trip) that reads
// every scope's counters, applies the rule of limiter.ts and counts the request in all scopes or
// none; settling is a second one. Time is Redis's own clock, so replicas agree on the window.
// Keys per scope base `b`: `b:r:<window>` requests, `b:t:<window>` tokens, `b:c` a sorted set of
// in-flight request ids scored by when their slot expires (freed if a replica dies holding it).
import { luaScript } from '../limit-state/lua-script.js';

/** KEYS: scope bases. ARGV: window ms, lease ms, request id, tokens, then rpm, tpm, concurrent per scope (0: none). */
export const ADMIT = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local W = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
local id = ARGV[3]
local tokens = tonumber(ARGV[4])
local window = math.floor(now / W)
local elapsed = now - window * W
local reply = {0, 0, window, elapsed}
local function count(key) return tonumber(redis.call('GET', key) or 0) end
for i, base in ipairs(KEYS) do
  local a = 4 + (i - 1) * 3
  local rpm, tpm, conc = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  local rp, rc = count(base .. ':r:' .. (window - 1)), count(base .. ':r:' .. window)
  local tp, tc = count(base .. ':t:' .. (window - 1)), count(base .. ':t:' .. window)
  local inflight = 0
  if conc > 0 then
    redis.call('ZREMRANGEBYSCORE', base .. ':c', '-inf', now)
    inflight = redis.call('ZCARD', base .. ':c')
  end
  table.insert(reply, rp); table.insert(reply, rc); table.insert(reply, tp); table.insert(reply, tc); table.insert(reply, inflight)
  if reply[1] == 0 then
    local why = 0
    if conc > 0 and inflight + 1 > conc then why = 3
    elseif rpm > 0 and rp * (W - elapsed) / W + rc + 1 > rpm then why = 1
    elseif tpm > 0 and tp * (W - elapsed) / W + tc + 1 > tpm then why = 2 end
    if why > 0 then reply[1] = i; reply[2] = why end
  end
end
if reply[1] == 0 then
  for i, base in ipairs(KEYS) do
    local a = 4 + (i - 1) * 3
    if tonumber(ARGV[a + 1]) > 0 then
      local key = base .. ':r:' .. window
      redis.call('INCR', key); redis.call('PEXPIRE', key, 2 * W)
    end
    if tonumber(ARGV[a + 2]) > 0 then
      local key = base .. ':t:' .. window
      redis.call('INCRBY', key, tokens); redis.call('PEXPIRE', key, 2 * W)
    end
    if tonumber(ARGV[a + 3]) > 0 then
      redis.call('ZADD', base .. ':c', now + lease, id); redis.call('PEXPIRE', base .. ':c', lease)
    end
  end
end
return reply
`);

/** KEYS: scope bases. ARGV: window, request id, token delta, then tpm, concurrent per scope. */
export const SETTLE = luaScript(`
local window = ARGV[1]
local id = ARGV[2]
local delta = tonumber(ARGV[3])
for i, base in ipairs(KEYS) do
  local a = 3 + (i - 1) * 2
  local key = base .. ':t:' .. window
  -- An expired window is not brought back (it would never expire again).
  if tonumber(ARGV[a + 1]) > 0 and delta ~= 0 and redis.call('EXISTS', key) == 1 then redis.call('INCRBY', key, delta) end
  if tonumber(ARGV[a + 2]) > 0 then redis.call('ZREM', base .. ':c', id) end
end
return 0
`);
