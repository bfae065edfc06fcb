-- KEYS: the cache's subscriptions. ARGV: replica. One subscription of this replica ended (never below zero).
local n = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if n > 1 then redis.call('HINCRBY', KEYS[1], ARGV[1], -1) elseif n == 1 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return n
