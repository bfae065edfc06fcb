-- Forgets the replicas' registrations (replicas: sorted set id -> expiry; started: hash) expired by `now`.
local function prune_replicas(replicas, started, now)
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', replicas, '-inf', now)) do redis.call('HDEL', started, id) end
  redis.call('ZREMRANGEBYSCORE', replicas, '-inf', now)
end
