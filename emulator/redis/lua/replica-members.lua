-- KEYS: replicas, started. Every registered replica: {id, started, ...}.
prune_replicas(KEYS[1], KEYS[2], redis_now())
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or '0'
end
return out
