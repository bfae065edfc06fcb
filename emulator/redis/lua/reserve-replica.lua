-- KEYS: replicas, started, ordinal. An ordinal no registered replica holds (Redis may have restarted empty).
prune_replicas(KEYS[1], KEYS[2], redis_now())
local n
repeat n = redis.call('INCR', KEYS[3]) until not redis.call('ZSCORE', KEYS[1], 'r' .. n)
return n
