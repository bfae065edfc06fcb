-- KEYS: event-readers. ARGV: id, reading (1 or 0), ttl. Registers this replica as having readers
-- (until now + ttl) or not; returns how many other replicas have readers.
local now = redis_now()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[2] == '1' then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[2])
