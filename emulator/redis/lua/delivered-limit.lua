-- KEYS: the cache's window. ARGV: window start, window length, items delivered.
-- Returns {count, window start}.
local window = roll(KEYS[1], ARGV[1], ARGV[2])
return {redis.call('HINCRBY', KEYS[1], 'count', ARGV[3]), tonumber(window)}
