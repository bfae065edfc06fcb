-- KEYS: the cache's window. ARGV: window start, window length, items delivered.
-- Returns {count, window start}.
return {redis.call('HINCRBY', KEYS[1], 'count', ARGV[3]), tonumber(window)}
