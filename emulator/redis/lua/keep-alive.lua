-- KEYS: alive (sorted set: replica -> when its counts stop counting, Redis's clock). ARGV:
-- replica, how long it stays alive (ms), '1' to stay or '0' to leave. Forgets the replicas no
-- longer alive. Returns 1.
local now = redis_now()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[3] == '1' then redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
else redis.call('ZREM', KEYS[1], ARGV[1]) end
return 1
