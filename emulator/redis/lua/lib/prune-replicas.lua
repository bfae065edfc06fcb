-- KEYS: replicas (sorted set: id -> expiry), started (hash). Forgets the registrations expired by `now`.
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)) do redis.call('HDEL', KEYS[2], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
