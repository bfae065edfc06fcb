-- KEYS: caches (set: every cache's name), topics (set: every topic's id), then, to drop a cache,
-- each of its topics' hash and stream (in pairs, in the order of their ids in ARGV).
-- ARGV: what ('seed', 'reset', 'make' or 'drop'), the channel, the replica, then: for seed and
-- reset the configured caches; for make the cache; for drop the cache, then its topics' ids.
-- seed: the configured caches, unless a replica set them already; reset: the configured caches
-- again. make and drop change the set and, when they did, announce
-- {"k":"m"|"d","cache":...,"from":replica} (drop forgets the cache's topics too). Returns every cache.
local what = ARGV[1]
if what == 'seed' or what == 'reset' then
  if what == 'reset' or redis.call('EXISTS', KEYS[1]) == 0 then
    redis.call('DEL', KEYS[1])
    for i = 4, #ARGV do redis.call('SADD', KEYS[1], ARGV[i]) end
  end
elseif what == 'make' then
  if redis.call('SADD', KEYS[1], ARGV[4]) == 1 then
    redis.call('PUBLISH', ARGV[2], cjson.encode({ k = 'm', cache = ARGV[4], from = ARGV[3] }))
  end
elseif what == 'drop' then
  if redis.call('SREM', KEYS[1], ARGV[4]) == 1 then
    for i = 5, #ARGV do
      redis.call('SREM', KEYS[2], ARGV[i])
      redis.call('DEL', KEYS[2 * (i - 4) + 1], KEYS[2 * (i - 4) + 2])
    end
    redis.call('PUBLISH', ARGV[2], cjson.encode({ k = 'd', cache = ARGV[4], from = ARGV[3] }))
  end
end
return redis.call('SMEMBERS', KEYS[1])
