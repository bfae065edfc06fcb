-- KEYS: replicas, started, ordinal. ARGV: id, ordinal, started, ttl. Registers (again) until now + ttl.
redis.call('ZADD', KEYS[1], redis_now() + tonumber(ARGV[4]), ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
if tonumber(redis.call('GET', KEYS[3]) or '0') < tonumber(ARGV[2]) then redis.call('SET', KEYS[3], ARGV[2]) end
return 1
