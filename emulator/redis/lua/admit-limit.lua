-- KEYS: the cache's window, the cache's subscriptions (hash: replica -> its count), alive (sorted
-- set: replica -> when its counts stop counting, Redis's clock). ARGV: window start, window length
-- (ms), operations limit, '1' for a publish (counted now) or '0' for a subscribe, subscriptions
-- limit, replica, how long a replica stays alive (ms).
-- A subscribe admitted is one more subscription of this replica until it is released; the
-- counts of replicas no longer alive are dropped. Returns {verdict, count, window start}: 0
-- admitted (count: the operations), 1 operations refused, 2 subscriptions refused (count: the
-- subscriptions).
local window, count = roll(KEYS[1], ARGV[1], ARGV[2])
if count + 1 > tonumber(ARGV[3]) then return {1, count, tonumber(window)} end
if ARGV[4] == '1' then return {0, redis.call('HINCRBY', KEYS[1], 'count', 1), tonumber(window)} end
local now = redis_now()
local waiting = live_subscriptions(KEYS[2], KEYS[3], now, true)
if waiting >= tonumber(ARGV[5]) then return {2, waiting, tonumber(window)} end
redis.call('HINCRBY', KEYS[2], ARGV[6], 1)
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[7]), ARGV[6])
return {0, count, tonumber(window)}
