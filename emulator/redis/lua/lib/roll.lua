-- KEYS[1]: the cache's window. ARGV: window start, window length (ms). Sets `window` (the start
-- counted in) and `count` (its operations so far), starting a new window unless the caller
-- counts in the stored one (lib/counts-in.lua).
local window = ARGV[1]
local count = 0
local stored = redis.call('HGET', KEYS[1], 'start')
local start = tonumber(ARGV[1])
if counts_in(tonumber(stored), start, tonumber(ARGV[2])) then
  window = stored
  count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
else
  redis.call('HSET', KEYS[1], 'start', window, 'count', 0)
end
